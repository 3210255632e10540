import Foundation
import Testing

@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// A GeoJSON route for `simulate`: the line it holds, and a message naming the file, the part and
/// the line and column for every way the file can be wrong.
@Suite struct GeoJSONRouteTests {
    func route(_ text: String) throws(InputError) -> [RoutePoint] {
        try GeoJSONRoute.parse(Data(text.utf8), file: "r.geojson")
    }

    func message(_ text: String) -> String? {
        do {
            _ = try route(text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func theLineIsFoundWhateverTheOrderOfTheMembers() throws {
        // "coordinates" before "type", an altitude, a null altitude, a fourth number (ignored)
        let bare = try route(#"{"coordinates":[[8,47,410.5],[8.1,47.2,null],[8.2,47.4,420,7]],"type":"LineString"}"#)
        #expect(
            bare == [
                RoutePoint(latitude: 47, longitude: 8, altitude: 410.5),
                RoutePoint(latitude: 47.2, longitude: 8.1),
                RoutePoint(latitude: 47.4, longitude: 8.2, altitude: 420),
            ])
        // A collection's first feature with a point: the empty line and the Point are passed over.
        let collection = try route(
            """
            {"features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[]},"properties":{}},
            {"type":"Feature","geometry":null,"properties":{}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[9,46]},"properties":{}},
            {"type":"Feature","properties":{"name":"a"},"geometry":{"type":"MultiLineString","coordinates":[[[8,47],[8,47.1]],[[8,47.2]]]}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,1]]},"properties":{}}],
            "type":"FeatureCollection"}
            """)
        #expect(collection.map(\.latitude) == [47, 47.1, 47.2])
    }

    @Test func malformedJSONIsNamedByLineAndColumn() {
        #expect(
            message("{\"type\": \"LineString\",\n \"coordinates\": [[8, 47], [8.1 47]]}")
                == "r.geojson: malformed JSON at line 2, column 32: expected ',' or ']', found '4'")
        #expect(
            message(#"{"type":"LineString","coordinates":[[8,47]]} x"#)
                == "r.geojson: malformed JSON at line 1, column 46: unexpected data after the top-level value")
        #expect(
            message("") == "r.geojson: malformed JSON at line 1, column 1: expected a value, found the end of the file")
    }

    @Test func aWrongPositionIsNamedByItsFeatureLineAndIndex() {
        #expect(
            message(
                #"{"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[8,47],[8.1,47]],[[8.2,47],["8.3",47]]]},"properties":{}}"#
            ) == "r.geojson: LineString 1, position 1 (line 1, column 99): a position is [lon, lat] or [lon, lat, alt]")
        #expect(
            message(
                """
                {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]},"properties":{}},
                {"type":"Feature","geometry":{"type":"LineString","coordinates":[[8,47],[8,95]]},"properties":{}}]}
                """)
                == "r.geojson: feature 1, LineString 0, position 1 (line 2, column 73): [8.0, 95.0] is out of range")
        #expect(
            message(#"{"type":"LineString","coordinates":[[8,47,"high"]]}"#)
                == "r.geojson: LineString 0, position 0 (line 1, column 37): a position is [lon, lat] or [lon, lat, alt]"
        )
        #expect(
            message(#"{"type":"LineString","coordinates":{"a":1}}"#)
                == "r.geojson: LineString 0 (line 1, column 36): a line is an array of positions")
        #expect(
            message(#"{"type":"FeatureCollection","features":[7]}"#)
                == "r.geojson: feature 0 (line 1, column 41): a feature is an object")
    }

    @Test func whatIsNoRouteSaysSo() {
        #expect(message("[[8,47],[8.1,47]]") == "r.geojson: a GeoJSON object is expected at the top level")
        for text in [#"{"type":"Point","coordinates":[8,47]}"#, #"{"type":"FeatureCollection","features":[]}"#, "{}"] {
            #expect(
                message(text) == "r.geojson: no LineString to follow (a route wants a LineString or MultiLineString)",
                "\(text)")
        }
    }
}
