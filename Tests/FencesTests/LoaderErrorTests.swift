import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// Every bad-input case of docs/fences.md refuses the whole file with file, feature index, id and problem.
@Suite struct LoaderErrorTests {
    let good = circleFeature(id: "\"ok\"", lon: 1, lat: 2, radius: 10)

    @Test func malformedJSONNamesLineAndColumn() throws {
        let message = try #require(
            loadError("{\"type\":\"FeatureCollection\",\n\"features\":[" + good + ",{\"type\":}]}"))
        #expect(message.hasPrefix("f.geojson: feature 1: malformed JSON at line 2, column"))
        #expect(message.hasSuffix("expected a string, found '}'"))
        let top = try #require(loadError("{\"type\":\"FeatureCollection\" \"features\":[]}"))
        #expect(top.hasPrefix("f.geojson: malformed JSON at line 1, column 29: expected ',' or '}'"))
        #expect(loadError("")?.contains("malformed JSON") == true)
        #expect(loadError(collection(good) + "x")?.contains("unexpected data after") == true)
    }

    @Test func unknownGeometry() throws {
        let line =
            "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[0,0],[1,1]]},\"properties\":{}}"
        let message = try #require(loadError(collection(good, line)))
        #expect(
            message
                == "f.geojson: feature 1 (id 7): unsupported geometry type 'MultiPoint' (fences are Point with properties.radius, Polygon, MultiPolygon, or LineString or MultiLineString with properties.radius)"
        )
        let none = "{\"type\":\"Feature\",\"id\":\"x\",\"geometry\":null,\"properties\":{}}"
        #expect(loadError(collection(none)) == "f.geojson: feature 0 (id \"x\"): feature has no geometry")
    }

    @Test func unclosedRing() throws {
        let open = polygonFeature(id: "\"p\"", rings: [[(0, 0), (1, 0), (1, 1), (0, 1)]])
        let message = try #require(loadError(collection(good, open)))
        #expect(
            message
                == "f.geojson: feature 1 (id \"p\"): ring 0 is not closed: first position [0, 0] differs from last [0, 1]"
        )
    }

    @Test func tooShortRing() throws {
        let short = polygonFeature(id: "3", rings: [square(0, 0, 4, 4), [(1, 1), (2, 1), (1, 1)]])
        let message = try #require(loadError(collection(short)))
        #expect(message == "f.geojson: feature 0 (id 3): ring 1 has 3 positions; a closed ring needs at least 4")
        let multi = multiPolygonFeature(id: "4", parts: [[square(0, 0, 1, 1)], [[(5, 5), (6, 5), (5, 5)]]])
        #expect(
            loadError(collection(multi))
                == "f.geojson: feature 0 (id 4): part 1 ring 0 has 3 positions; a closed ring needs at least 4")
    }

    @Test func nonNumericCoordinates() throws {
        let bad =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\"12.5\",3]},\"properties\":{\"radius\":5},\"id\":\"late\"}"
        let message = try #require(loadError(collection(good, bad)))
        #expect(message == "f.geojson: feature 1 (id \"late\"): coordinate '\"12.5\"' is not a number")
        let null = polygonFeature(id: "9", rings: [[(0, 0), (1, 0), (1, 1), (0, 0)]]).replacingFirst(
            "[1.0,0.0]", with: "[1.0,null]")
        #expect(loadError(collection(null)) == "f.geojson: feature 0 (id 9): coordinate 'null' is not a number")
    }

    @Test func outOfRangeCoordinates() throws {
        let lat = circleFeature(id: "1", lon: 10, lat: 91.5, radius: 5)
        #expect(
            loadError(collection(lat))
                == "f.geojson: feature 0 (id 1): circle centre: latitude 91.5 is out of range [-90, 90]")
        let lon = polygonFeature(id: "2", rings: [square(179, 0, 181, 1)])
        #expect(
            loadError(collection(good, lon))
                == "f.geojson: feature 1 (id 2): ring 0 position 1: longitude 181 is out of range [-180, 180]")
    }

    @Test func missingOrNonPositiveRadius() throws {
        let missing =
            "{\"type\":\"Feature\",\"id\":5,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"name\":\"x\"}}"
        #expect(
            loadError(collection(missing))
                == "f.geojson: feature 0 (id 5): a circle (Point) needs properties.radius in metres")
        #expect(
            loadError(collection(circleFeature(id: "6", lon: 1, lat: 2, radius: 0)))
                == "f.geojson: feature 0 (id 6): radius 0 must be a positive number of metres")
        #expect(
            loadError(collection(circleFeature(id: "6", lon: 1, lat: 2, radius: -3.5)))
                == "f.geojson: feature 0 (id 6): radius -3.5 must be a positive number of metres")
        let text = circleFeature(id: "8", lon: 1, lat: 2, radius: 1).replacingFirst(
            "\"radius\":1.0", with: "\"radius\":\"big\"")
        #expect(
            loadError(collection(text)) == "f.geojson: feature 0 (id 8): radius \"big\" is not a number of metres")
        // A number in quotes, as spreadsheets export it: named as text, with the fix.
        #expect(
            loadError(
                collection(
                    circleFeature(id: "9", lon: 1, lat: 2, radius: 1).replacingFirst(
                        "\"radius\":1.0", with: "\"radius\":\"75\"")))
                == "f.geojson: feature 0 (id 9): radius \"75\" is text, not a number: write it without quotes (\"radius\": 75)"
        )
    }

    @Test func duplicateIDs() throws {
        let a = circleFeature(id: "\"gate\"", lon: 1, lat: 2, radius: 10)
        let b = polygonFeature(id: "\"gate\"", rings: [square(0, 0, 1, 1)])
        #expect(
            loadError(collection(good, a, b))
                == "f.geojson: feature 2 (id \"gate\"): duplicate id \"gate\" (first used by feature 1)")
        // numbers compare by value
        let n1 = circleFeature(id: "1", lon: 1, lat: 2, radius: 10)
        let n2 = circleFeature(id: "1.0", lon: 1, lat: 2, radius: 10)
        #expect(
            loadError(collection(n1, n2)) == "f.geojson: feature 1 (id 1.0): duplicate id 1.0 (first used by feature 0)"
        )
        // properties.id counts as the id
        let inProperties =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"id\":1,\"radius\":3}}"
        #expect(
            loadError(collection(n1, inProperties))
                == "f.geojson: feature 1 (id 1): duplicate id 1 (first used by feature 0)")
    }

    @Test func badSettings() {
        #expect(
            loadError(collection(circleFeature(id: "1", lon: 1, lat: 2, radius: 5, extra: ",\"dwell\":-1")))
                == "f.geojson: feature 0 (id 1): property dwell must be positive or 0 (0 to 1000000000 seconds), not -1"
        )
        #expect(
            loadError(
                collection(circleFeature(id: "1", lon: 1, lat: 2, radius: 5, extra: ",\"notify\":[\"enter\",\"boom\"]"))
            )?
            .hasPrefix("f.geojson: feature 0 (id 1): notify: unknown event type 'boom'") == true)
        #expect(
            loadError(collection(circleFeature(id: "{}", lon: 1, lat: 2, radius: 5)))
                == "f.geojson: feature 0: id must be a string or a number, not {}")
    }

    /// Valid JSON numbers too big for the engine (1e16 s of dwell is 1e19 ms, past Int64)
    /// are refused at the door with file, feature and property, never passed on to trap later.
    @Test func hugeNumbersAreRefusedWithTheirProperty() {
        for (key, value, unit, max) in [
            ("dwell", "1e16", "seconds", "1000000000"), ("dwell", "1e300", "seconds", "1000000000"),
            ("hysteresis", "1e300", "metres", "20015115"), ("approach", "1e19", "metres", "20015115"),
        ] {
            let shown = Double(value)!.description
            #expect(
                loadError(
                    collection(circleFeature(id: "\"k\"", lon: 1, lat: 2, radius: 5, extra: ",\"\(key)\":\(value)")))
                    == "f.geojson: feature 0 (id \"k\"): property \(key) must be 0 to \(max) \(unit), not \(shown)")
        }
        // 1e400 overflows a Double to infinity while parsing: refused all the same.
        #expect(
            loadError(collection(circleFeature(id: "1", lon: 1, lat: 2, radius: 5, extra: ",\"dwell\":1e400")))
                == "f.geojson: feature 0 (id 1): property dwell must be 0 to 1000000000 seconds, not inf")
        // The largest values accepted load.
        #expect(
            loadError(
                collection(
                    circleFeature(
                        id: "1", lon: 1, lat: 2, radius: 20_015_115,
                        extra: ",\"dwell\":1e9,\"approach\":20015115"))) == nil)
        for radius in ["1e19", "1e300", "20015116"] {
            let shown = radius == "20015116" ? "20015116" : Double(radius)!.description
            #expect(
                loadError(collection(circleFeature(id: "\"r\"", lon: 7, lat: 45, radius: Double(radius)!)))
                    == "f.geojson: feature 0 (id \"r\"): radius \(shown) must be at most 20015115 metres (half the Earth's circumference)"
            )
        }
        let header = "id,name,lat,lon,radius_m\n"
        #expect(
            loadError(header + "7,A,1,3,1e300\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: radius 1e+300 must be at most 20015115 metres (half the Earth's circumference)"
        )
        #expect(
            loadError(header + "7,A,1,3,inf\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: radius inf must be a positive number of metres")
    }

    @Test func notAFeatureCollection() {
        // a lone Feature is a fence file now (RFC 7946), so one without a geometry is a feature error
        #expect(loadError("{\"type\":\"Feature\"}") == "f.geojson: feature 0: feature has no geometry")
        #expect(
            loadError("{\"type\":\"GeometryCollection\",\"geometries\":[]}")
                == "f.geojson: top-level type is 'GeometryCollection', want 'FeatureCollection', 'Feature' or a 'Polygon', 'MultiPolygon', 'Point', 'LineString' or 'MultiLineString' geometry"
        )
        #expect(
            loadError("{\"features\":[]}")
                == "f.geojson: not a GeoJSON FeatureCollection, Feature or geometry (no \"type\")")
        #expect(
            loadError("{\"type\":\"FeatureCollection\"}") == "f.geojson: FeatureCollection has no \"features\" array")
    }

    @Test func csvErrors() {
        let header = "id,name,lat,lon,radius_m\n"
        #expect(
            loadError("id,lat,lon\n1,2,3\n", csv: true, file: "f.csv")
                == "f.csv: line 1: header 'id,lat,lon' has no radius, radius_m or r column; want at least lat,lon,radius"
        )
        #expect(
            loadError(header + "a,A,abc,3,10\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id \"a\"): line 2: lat 'abc' is not a number")
        #expect(
            loadError(header + "a,A,1,3,10\nb,B,95,3,10\n", csv: true, file: "f.csv")
                == "f.csv: feature 1 (id \"b\"): line 3: circle centre: latitude 95 is out of range [-90, 90]")
        #expect(
            loadError(header + "7,A,1,3,0\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: radius 0 must be a positive number of metres")
        #expect(
            loadError(header + "7,A,1,3,\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: radius_m is missing")
        #expect(
            loadError(header + "7,A,1,3,5\n7,B,1,3,5\n", csv: true, file: "f.csv")
                == "f.csv: feature 1 (id 7): line 3: duplicate id 7 (first used by feature 0)")
        #expect(
            loadError(header + "7,A,1,3\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: has 4 fields; want 5 (id,name,lat,lon,radius_m)")
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let r = range(of: target) else { return self }
        return replacingCharacters(in: r, with: replacement)
    }
}

/// Found by the fence fuzzer: a quoted CSV id "\r\n 2" was taken for the JSON number 2
/// and went into event JSON as it was, raw CR LF included, splitting the event's line.
@Suite struct CSVIDRegressionTests {
    @Test func idWithLineBreaksIsNoNumberAndEscapedInJSON() throws {
        let set = try FenceSet.parse(
            "id,name,lat,lon,radius_m\n\"\r\n 2\",A,45,7,100\n\" 3\",B,46,7,100\n\"4\r\n\",C,47,7,100\n",
            file: "f.csv", csv: true)
        // Trimmed at both ends, CR LF included: plain numbers.
        #expect(set.ids.map(\.json) == ["2", "3", "4"])
        let inner = try FenceSet.parse("id,name,lat,lon,radius_m\n\"2\r\n5\",A,45,7,100\n", file: "f.csv", csv: true)
        #expect(inner.ids.map(\.json) == ["\"2\\r\\n5\""])
    }

    /// Messages quote the file; its controls (ESC, C1) are shown as '?'.
    @Test func messagesQuoteTheFileWithoutControls() {
        #expect(
            loadError("id,name,lat,lon,radius_m\n7,A,\u{1B}[2J\u{9B}1m,3,10\n", csv: true, file: "f.csv")
                == "f.csv: feature 0 (id 7): line 2: lat '?[2J?1m' is not a number")
    }
}
