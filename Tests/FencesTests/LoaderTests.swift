import FenceBuilders
import JSONInput
import Testing

@testable import Fences

@Suite struct LoaderTests {
    @Test func idsSettingsAndPropertiesAreCarried() throws {
        let props =
            "{\"name\":\"Low bridge 10'6\\\"\",\"radius\":250,\"dwell\":30,\"hysteresis\":15,\"approach\":1600,"
            + "\"notify\":[\"enter\",\"approach\"],\"tags\":[\"truck\",\"bridge\"],\"clearance_m\":3.2,\"nested\":{\"a\":[1,2]}}"
        let circle =
            "{\"type\":\"Feature\",\"id\":\"bridge-1\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[-83.75,42.28,270]},"
            + "\"properties\":\(props)}"
        let poly = polygonFeature(id: "17", rings: [square(0, 0, 1, 1)])
        let noID =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"radius\":3}}"
        let set = try fenceSet(collection(circle, poly, noID))
        #expect(set.count == 3)
        #expect(Array(set.ids[..<2]) == [.string("bridge-1"), .number("17")])
        #expect(set.ids[2].json.hasPrefix("\"auto-"), "no id: derived from the shape and name")
        let info = set.info(0)
        #expect(info.name == "Low bridge 10'6\"")
        #expect(info.kind == .circle)
        #expect(
            info.settings
                == FenceSettings(
                    dwell: 30, hysteresis: 15, approach: 1600, notify: [.enter, .approach],
                    tags: ["truck", "bridge"]))
        #expect(info.propertiesJSON == props)
        #expect(set.info(1).propertiesJSON == "{}")
        #expect(set.info(1).settings == FenceSettings())
        #expect(set.circle(0) == CircleShape(lat: 42.28, lon: -83.75, radius: 250))
        #expect(set.ids[0].json == "\"bridge-1\"")
    }

    @Test func keysInAnyOrderAndUnknownMembersSkipped() throws {
        let f =
            "{\"properties\":{\"radius\":100},\"bbox\":[0,0,1,1],\"geometry\":{\"coordinates\":[5,6],\"type\":\"Point\"},"
            + "\"id\":1e2,\"type\":\"Feature\"}"
        let set = try fenceSet("{\"features\":[\(f)],\"crs\":null,\"type\":\"FeatureCollection\"}")
        #expect(set.ids == [.number("1e2")])
        #expect(hits(set, 6, 5) == [0])
    }

    @Test func numbersParseExactly() throws {
        // values the fast path and the strtod path must both round correctly
        let values = [
            "41.8812345", "-87.6312345", "0.1", "1e-7", "123456789012345678", "1.7976931348623157e308",
            "4.9e-324", "-0.0", "2.2250738585072014e-308", "89.99999999999999",
        ]
        for text in values {
            let bytes = Array(text.utf8)
            let v = bytes.withUnsafeBufferPointer { b -> Double? in
                var s = JSONScanner(b)
                return try? s.number()
            }
            #expect(v == Double(text), "\(text)")
        }
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            let d = Double.random(in: -180...180, using: &rng)
            let text = String(format7: d)
            let bytes = Array(text.utf8)
            let v = bytes.withUnsafeBufferPointer { b -> Double? in
                var s = JSONScanner(b)
                return try? s.number()
            }
            #expect(v == Double(text), "\(text)")
        }
    }

    /// Deleting a feature must not rename the fences after it (MQTT topics, Home
    /// Assistant sensors and saved states follow the id). `id`, else `properties.id` (QGIS), else a
    /// hash of the shape and name (geojson.io writes no ids).
    @Test func idsStayWhenOtherFeaturesAreRemoved() throws {
        let gate =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":{\"name\":\"Gate\",\"radius\":30}}"
        let yard = polygonFeature(id: "null", rings: [square(0, 0, 1, 1)])
        let qgis =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,4]},\"properties\":{\"id\":12,\"radius\":5}}"
        let both =
            "{\"type\":\"Feature\",\"id\":\"top\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[5,6]},\"properties\":{\"id\":\"inner\",\"radius\":5}}"
        let full = try fenceSet(collection(gate, yard, qgis, both))
        #expect(full.ids[2] == .number("12"), "properties.id when there is no id")
        #expect(full.ids[3] == .string("top"), "the feature's own id first")
        let withoutGate = try fenceSet(collection(yard, qgis, both))
        #expect(Array(withoutGate.ids) == Array(full.ids[1...]), "the others keep their ids")
        let reordered = try fenceSet(collection(both, qgis, yard, gate))
        #expect(Set(reordered.ids) == Set(full.ids))
        // The same place under another name is another fence; the same fence twice is told apart.
        let renamed = try fenceSet(collection(gate.replacingOccurrences(of: "Gate", with: "Gate 2")))
        #expect(renamed.ids[0] != full.ids[0])
        let twice = try fenceSet(collection(gate, gate))
        guard case .string(let first) = twice.ids[0] else {
            Issue.record("\(twice.ids)")
            return
        }
        #expect(twice.ids[1] == .string(first + "-2"))
    }

    @Test func csvLoads() throws {
        let csv =
            "id,name,lat,lon,radius_m\r\n1,Gym,41.88,-87.63,50\r\n\"b-2\",\"Depot, north\",41.9,-87.6,120.5\r\n,NoID,1,2,3\r\n"
        let set = try FenceSet.parse(csv, file: "f.csv", csv: true)
        #expect(Array(set.ids[..<2]) == [.number("1"), .string("b-2")])
        #expect(set.ids[2].json.hasPrefix("\"auto-"), "an empty id: derived from the circle and name")
        #expect(set.name(1) == "Depot, north")
        #expect(set.info(1).propertiesJSON == "{\"name\":\"Depot, north\",\"radius\":120.5}")
        #expect(hits(set, 41.88, -87.63) == [0])
    }
}

extension String {
    init(format7 d: Double) {
        let scaled = (d * 1e7).rounded()
        let negative = scaled < 0
        let a = Int64(abs(scaled))
        let frac = String(a % 10_000_000)
        self = (negative ? "-" : "") + "\(a / 10_000_000)." + String(repeating: "0", count: 7 - frac.count) + frac
    }
}
