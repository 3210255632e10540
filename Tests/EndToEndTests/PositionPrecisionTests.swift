import Foundation
import Testing

/// Every output prints positions at 9 decimals (docs/formats.md), which is lossless for NMEA: the
/// gym capture's receiver sends 7 decimals of a minute (`4044.5136996`), so each printed position
/// must be within half a 1e-9 step of a position worked out from the sentences themselves. At 7
/// decimals (the old precision) a position is off by up to 5e-8 degree, about 5 mm.
@Suite struct PositionPrecisionTests {
    static let capture = "captures/gym/capture.nmea"
    static let fences = "captures/gym/fences.geojson"

    /// Every `(lat, lon)` of the capture's GGA sentences, from `ddmm.mmmmmmm` by hand.
    static func sentPositions() throws -> [(lat: Double, lon: Double)] {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(capture), encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$GPGGA") }.compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 5, let lat = Double(fields[2]), let lon = Double(fields[4]) else { return nil }
            func degrees(_ value: Double, _ hemisphere: String) -> Double {
                let whole = (value / 100).rounded(.towardZero)
                let sign: Double = hemisphere == "S" || hemisphere == "W" ? -1 : 1
                return sign * (whole + (value - whole * 100) / 60)
            }
            return (degrees(lat, fields[3]), degrees(lon, fields[5]))
        }
    }

    /// Whether `(lat, lon)` is, to the last printed digit, one of the positions the receiver sent.
    static func isSent(_ lat: Double, _ lon: Double, in sent: [(lat: Double, lon: Double)]) -> Bool {
        sent.contains { abs($0.lat - lat) <= 6e-10 && abs($0.lon - lon) <= 6e-10 }
    }

    static func objects(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    @Test func decodePrintsThePositionsAsSent() throws {
        let sent = try Self.sentPositions()
        let result = try runGPSFence(["decode", Self.capture])
        #expect(result.status == 0, "\(result.stderr)")
        let fixes = Self.objects(result.stdout)
        #expect(fixes.count > 100)
        let lossy = fixes.filter { fix in
            guard let lat = fix["lat"] as? Double, let lon = fix["lon"] as? Double else { return true }
            return !Self.isSent(lat, lon, in: sent)
        }
        #expect(lossy.isEmpty, "\(lossy.prefix(2))")
    }

    @Test func eventLocationsAreThePositionsAsSent() throws {
        let sent = try Self.sentPositions()
        let result = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let located = Self.objects(result.stdout).compactMap { $0["location"] as? [String: Any] }
        #expect(located.count >= 3, "enter, exit, stationary, moving at least")
        for location in located {
            let lat = try #require(location["lat"] as? Double)
            let lon = try #require(location["lon"] as? Double)
            #expect(Self.isSent(lat, lon, in: sent), "\(location)")
        }
    }

    @Test func statusLastFixIsThePositionAsSent() throws {
        let sent = try Self.sentPositions()
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        let status = try runGPSFence(["status", "--state", state, "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        let fix = try #require(object["last_fix"] as? [String: Any], "\(status.stdout)")
        let lat = try #require(fix["lat"] as? Double)
        let lon = try #require(fix["lon"] as? Double)
        #expect(Self.isSent(lat, lon, in: sent), "\(fix)")
        #expect(try #require(sent.last).lat == lat || abs(try #require(sent.last).lat - lat) <= 6e-10)
    }

    /// Both exports: every track point and every event waypoint.
    @Test func exportsCarryThePositionsAsSent() throws {
        let sent = try Self.sentPositions()
        let folder = temporaryDirectory()
        let geojson = folder.appendingPathComponent("gym.geojson")
        let gpx = folder.appendingPathComponent("gym.gpx")
        let result = try runGPSFence([
            "report", Self.capture, "--fences", Self.fences, "--output", folder.appendingPathComponent("r.html").path,
            "--geojson", geojson.path, "--gpx", gpx.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")

        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: geojson)) as? [String: Any])
        var points: [[Double]] = []
        for feature in collection["features"] as? [[String: Any]] ?? [] {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard properties["kind"] as? String != "fence", let geometry = feature["geometry"] as? [String: Any]
            else { continue }
            switch geometry["type"] as? String {
            case "Point": points.append(geometry["coordinates"] as? [Double] ?? [])
            case "LineString": points += geometry["coordinates"] as? [[Double]] ?? []
            default: continue
            }
        }
        #expect(points.count > 100)
        let lossyGeoJSON = points.filter { $0.count < 2 || !Self.isSent($0[1], $0[0], in: sent) }
        #expect(lossyGeoJSON.isEmpty, "\(lossyGeoJSON.prefix(2))")

        let text = try String(contentsOf: gpx, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<(?:trkpt|wpt) lat="([^"]*)" lon="([^"]*)">"#)
        let pairs = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (Double(text[Range(match.range(at: 1), in: text)!]), Double(text[Range(match.range(at: 2), in: text)!]))
        }
        #expect(pairs.count > 100)
        let lossyGPX = pairs.filter { pair in
            guard let lat = pair.0, let lon = pair.1 else { return true }
            return !Self.isSent(lat, lon, in: sent)
        }
        #expect(lossyGPX.isEmpty, "\(lossyGPX.prefix(2))")
        // Speeds as the one number formatter prints them, not a double's noise.
        let speeds = try NSRegularExpression(pattern: #"<speed>([^<]*)</speed>"#)
        let longest = speeds.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            text[Range($0.range(at: 1), in: text)!].split(separator: ".").last?.count ?? 0
        }.max()
        #expect(longest.map { $0 <= 3 } == true, "at most 3 decimals of m/s")
    }

    /// DEL and the C1 controls (U+009B is a one-character CSI) reach JSON output only escaped, from
    /// a fence's name and from its properties.
    @Test func controlCharactersFromAFenceFileAreEscapedInEvents() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"gym",
         "geometry":{"type":"Point","coordinates":[-73.989308,40.741895]},
         "properties":{"name":"Iron\u{9B}31mTemple\u{7F}","radius":40,"note":"a\u{85}b\u{A0}c"}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["replay", Self.capture, "--fences", fences.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let raw = Array(result.stdout.utf8)
        #expect(!raw.contains(0x7F))
        #expect(!zip(raw, raw.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }, "no raw C1")
        #expect(result.stdout.contains(#""name":"Iron\u009b31mTemple\u007f""#), "\(result.stdout.prefix(400))")
        #expect(result.stdout.contains(#""note":"a\u0085b"#))
        let enter = try #require(Self.objects(result.stdout).first { $0["type"] as? String == "enter" })
        let fence = enter["fence"] as? [String: Any]
        #expect(fence?["name"] as? String == "Iron\u{9B}31mTemple\u{7F}", "the same text, escaped")
        #expect((fence?["properties"] as? [String: Any])?["note"] as? String == "a\u{85}b\u{A0}c")
    }
}
