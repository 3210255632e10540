import FenceBuilders
import Testing

@testable import Fences

/// RFC 7946 §2: a GeoJSON text is one object, a FeatureCollection, a Feature or a geometry. A fence
/// file may be any of them (docs/fences.md).
@Suite struct SingleObjectFileTests {
    @Test func singleFeatureIsOneFence() throws {
        // a 2x2 degree square around (1, 1); "type" after the geometry, as some writers order it
        let text =
            "{\"id\":\"sq\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[" + ringJSON(square(0, 0, 2, 2))
            + "]},\"properties\":{\"name\":\"Square\"},\"type\":\"Feature\"}"
        let set = try fenceSet(text)
        #expect(set.count == 1)
        #expect(set.ids[0] == .string("sq"))
        #expect(set.name(0) == "Square")
        #expect(hits(set, 1, 1) == [0])
        #expect(hits(set, 3, 1) == [])
    }

    @Test func barePolygonAndMultiPolygon() throws {
        let polygon = try fenceSet("{\"type\":\"Polygon\",\"coordinates\":[" + ringJSON(square(0, 0, 2, 2)) + "]}")
        #expect(polygon.count == 1)
        #expect(polygon.ids[0].json.hasPrefix("\"auto-"))  // no id: derived from the shape
        #expect(hits(polygon, 1, 1) == [0])
        #expect(hits(polygon, -1, 1) == [])
        let multi = try fenceSet(
            "{\"type\":\"MultiPolygon\",\"coordinates\":[[" + ringJSON(square(0, 0, 1, 1)) + "],["
                + ringJSON(square(10, 10, 11, 11)) + "]]}")
        #expect(hits(multi, 10.5, 10.5) == [0])  // (lat, lon) in the second part
        #expect(hits(multi, 0.5, 0.5) == [0])
        #expect(hits(multi, 5, 5) == [])
    }

    @Test func barePointNeedsItsRadius() throws {
        // 0.001 degree of latitude is 111.2 m on the R = 6371008.8 m sphere
        let circle = try fenceSet("{\"type\":\"Point\",\"coordinates\":[10,50],\"radius\":100}")
        #expect(circle.circle(0)?.radius == 100)
        #expect(hits(circle, 50.0008, 10) == [0])  // 89 m north
        #expect(hits(circle, 50.001, 10) == [])  // 111 m north
        #expect(
            loadError("{\"type\":\"Point\",\"coordinates\":[10,50]}")
                == "f.geojson: feature 0: a bare Point geometry needs a \"radius\" member in metres (or use a Feature with properties.radius)"
        )
    }

    @Test func trailingDataAfterTheObjectIsRefused() {
        let text = "{\"type\":\"Polygon\",\"coordinates\":[" + ringJSON(square(0, 0, 2, 2)) + "]} x"
        #expect(loadError(text)?.contains("unexpected data after the top-level object") == true)
    }
}
