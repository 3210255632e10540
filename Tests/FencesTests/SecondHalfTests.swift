import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// A big fence file's second half is read by a thread of its own (`SecondHalfReader`): what it
/// loads, and what it refuses and in which words, are those of one reading from start to end.
@Suite struct SecondHalfTests {
    /// Roads and circles as a country's file has them, and a few of every other kind of setting.
    static func features(_ count: Int) -> [String] {
        (0..<count).map { k in
            switch k % 7 {
            case 0:
                return circleFeature(
                    id: "\(k)", lon: Double(k % 90) / 7, lat: Double(k % 60) / 11, radius: 50 + Double(k % 5),
                    extra: k % 3 == 0 ? ",\"dwell\":30,\"tags\":[\"a\",\"b\"]" : "")
            case 3:
                return "{\"type\":\"Feature\",\"id\":\"c\(k)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
                    + "[\(Double(k) / 1000),\(Double(k) / 2000)]},\"properties\":{\"radius\":9,\"notify\":[\"enter\"],"
                    + "\"clearance\":\"3.5 m\"}}"
            default:
                // 7 decimals as an import writes them, and now and then a coordinate that is not
                let lon = 9 + Double(k) * 0.000_123_4
                let lat = 49 + Double(k % 50) * 0.000_987_6
                let odd = k % 97 == 5 ? "3" : ""
                let coordinates = (0..<(2 + k % 4)).map {
                    "[\(String(format7(lon + Double($0) * 0.0003)))\(odd),\(format7(lat + Double($0) * 0.0001))]"
                }
                let limit = [30, 50, 70, 100][k % 4]
                let name = k % 5 == 0 ? "null" : "\"Street \(k % 13)\""
                return "{\"type\":\"Feature\",\"id\":\"osm:way/\(1000 + k)\",\"geometry\":{\"type\":\"LineString\","
                    + "\"coordinates\":[\(coordinates.joined(separator: ","))]},\"properties\":{\"name\":\(name),"
                    + "\"speed_limit_kmh\":\(limit),\"highway\":\"residential\",\"radius\":\(3.5 + Double(k % 3))}}"
            }
        }
    }

    static func format7(_ value: Double) -> String {
        let scaled = (value * 1e7).rounded()
        return String(scaled / 1e7)
    }

    static func text(_ features: [String]) -> String {
        "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}"
    }

    /// The set, or the message it was refused with, read at once or in halves; and what became of
    /// the second half. Whatever it was, the loader waited for it.
    static func load(_ text: String, halves: Bool) -> (fences: [String], refused: String?, half: SecondHalfOutcome) {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var loader = GeoJSONLoader(bytes: buffer, file: "f.geojson")
            loader.readsInHalvesFrom = halves ? 0 : .max
            do throws(FenceLoadError) {
                let set = try loader.load().build()
                let points: [(lat: Double, lon: Double)] = (0..<300).map { k in
                    let step = Double(k)
                    return (49 + step * 0.000_17, 9 + step * 0.000_41)
                }
                let hits = FenceHits()
                var fences: [String] = []
                for k in 0..<set.count {
                    let info = set.info(k)
                    let circle = set.circle(k).map { "\($0)" } ?? ""
                    let corridor = set.corridor(k).map { "\($0)" } ?? ""
                    let name = info.name ?? "-"
                    fences.append(
                        "\(info.id) \(name) \(info.kind) \(info.settings) \(info.propertiesJSON) \(circle) \(corridor)")
                }
                for point in points {
                    set.fences(containingLat: point.lat, lon: point.lon, into: hits)
                    fences.append("\(point): \(hits.indices.sorted())")
                }
                #expect(loader.secondHalf != .started, "left without waiting for it")
                return (fences, nil, loader.secondHalf)
            } catch {
                #expect(loader.secondHalf != .started, "left without waiting for it")
                return ([], error.message, loader.secondHalf)
            }
        }
    }

    /// The first fence or point where two loads differ, both ways written.
    static func firstDifference(_ a: [String], _ b: [String]) -> String? {
        if let k = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            return "\(k): \(a[k]) | \(b[k])"
        }
        return a.count == b.count ? nil : "\(a.count) against \(b.count)"
    }

    @Test func aFileReadInHalvesHoldsWhatOneReadingHolds() {
        let text = Self.text(Self.features(700))
        let once = Self.load(text, halves: false)
        let halves = Self.load(text, halves: true)
        #expect(once.refused == nil && once.half == .none)
        #expect(halves.half == .taken)
        #expect(halves.fences.count == 700 + 300)
        #expect(Self.firstDifference(halves.fences, once.fences) == nil)
        #expect(once.fences.contains { $0.hasSuffix("]") && !$0.hasSuffix("[]") }, "some points are in fences")
    }

    /// Polygons, and features without an id, after the middle: the loader reads those itself.
    @Test func polygonsAndFeaturesWithoutAnIdAfterTheMiddle() {
        var features = Self.features(600)
        features[450] = polygonFeature(id: "\"p\"", rings: [[(9, 49), (9.1, 49), (9.1, 49.1), (9, 49)]])
        features[500] =
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,49]},"
            + "\"properties\":{\"radius\":40}}"
        features[520] = features[500]
        let text = Self.text(features)
        let once = Self.load(text, halves: false)
        let halves = Self.load(text, halves: true)
        #expect(once.refused == nil)
        #expect(halves.half == .taken)
        #expect(Self.firstDifference(halves.fences, once.fences) == nil)
        #expect(once.fences.contains { $0.hasPrefix("\"auto-") && $0.contains("-2\" ") }, "a second derived id")
    }

    /// Every problem is named as one reading names it: at its feature, by its id, in its words.
    @Test(arguments: [
        "a bad coordinate after the middle", "a bad coordinate before the middle", "an id twice after the middle",
        "an id before and after the middle", "no comma after the middle", "a comma before the end",
        "an id before and after the middle, the number written otherwise", "a bad setting after the middle",
    ])
    func problemsAreNamedAsOneReadingNamesThem(_ problem: String) throws {
        var features = Self.features(600)
        switch problem {
        case "a bad coordinate after the middle":
            features[450] = features[450].replacingOccurrences(of: "[9.", with: "[199.")
        case "a bad coordinate before the middle":
            features[100] = features[100].replacingOccurrences(of: "[9.", with: "[199.")
        case "an id twice after the middle": features[460] = features[401]
        case "an id before and after the middle": features[470] = features[12]
        case "no comma after the middle": features[480] += " "
        case "a comma before the end": features.append("")
        case "an id before and after the middle, the number written otherwise":
            features[590] = circleFeature(id: "7.0", lon: 1, lat: 1, radius: 3)
        default: features[555] = features[555].replacingOccurrences(of: "\"radius\":", with: "\"dwell\":-1,\"radius\":")
        }
        var text = Self.text(features)
        if problem == "no comma after the middle" {
            text = text.replacingOccurrences(of: features[480] + ",", with: features[480])
        }
        let once = Self.load(text, halves: false)
        let halves = Self.load(text, halves: true)
        let refused = try #require(once.refused, "\(problem)")
        #expect(halves.refused == refused)
        if problem.hasSuffix("after the middle") && !problem.hasPrefix("an id before") {
            #expect(halves.half == .taken, "the second half was read up to the problem")
        }
        #expect(refused.hasPrefix("f.geojson: "), "\(refused)")
    }

    /// The guess of where the second half starts falls on a feature written inside a property:
    /// the loader reads on past it by itself, and the other reading is dropped.
    @Test func aFeatureInsideAPropertyIsNoPlaceToStart() throws {
        var features = Self.features(200)
        let nested =
            "{\"type\":\"Feature\",\"id\":\"n\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
            + "\"properties\":{\"radius\":5}}"
        let padding = String(repeating: "x", count: 200_000)
        features[100] = circleFeature(
            id: "\"holder\"", lon: 3, lat: 4, radius: 8, extra: ",\"note\":\"\(padding)\",\"copy\":\(nested)")
        let text = Self.text(features)
        let holder = try #require(text.range(of: padding))
        let middle = text.utf8.count / 2
        #expect(
            text.utf8.distance(from: text.startIndex, to: holder.lowerBound) < middle
                && text.utf8.distance(from: text.startIndex, to: holder.upperBound) > middle, "the middle is in it")
        let once = Self.load(text, halves: false)
        let halves = Self.load(text, halves: true)
        #expect(once.refused == nil)
        #expect(halves.half == .dropped)
        #expect(Self.firstDifference(halves.fences, once.fences) == nil)
    }
}
