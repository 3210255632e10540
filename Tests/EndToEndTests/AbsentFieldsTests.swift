import Foundation
import Testing

/// What a receiver did not report is left out of what the broker carries (docs/mqtt.md), never
/// written as `null`: judged by a real `mosquitto_sub` on a real mosquitto.
@Suite(.serialized) struct AbsentFieldsTests {
    /// Fixes without altitude, speed or course (empty GGA altitude, empty RMC speed and course)
    /// walking through a marked circle.
    static func captureWithoutAltitude() throws -> (capture: String, fences: String) {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var text = ""
        for second in 0..<40 {
            let time = String(format: "10%02d%02d.00", second / 60, second % 60)
            // About 25 m north a second, through the circle at 47.0045 N.
            let lat = String(format: "47%07.4f", 0.1 + Double(second) * 0.0137)
            text += checksummed("GPGGA,\(time),\(lat),N,00800.2000,E,1,09,0.9,,M,,M,,")
            text += checksummed("GPRMC,\(time),A,\(lat),N,00800.2000,E,,,030226,,,A")
        }
        let capture = folder.appendingPathComponent("walk.nmea")
        try text.write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"spot","geometry":{"type":"Point","coordinates":[8.00333,47.00500]},"properties":{"radius":100,"owntracks":true}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        return (capture.path, fences.path)
    }

    @Test func locationsAndOwnTracksMessagesLeaveOutWhatTheReceiverDidNotReport() throws {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("#")
        let (capture, fences) = try Self.captureWithoutAltitude()
        let result = try runGPSFence([
            "replay", capture, "--fences", fences, "--json", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/van",
            "--owntracks", "alice/phone", "--mqtt-location-interval", "0",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""type":"enter""#), "the walk enters the circle")
        #expect(
            subscriber.lines.wait(timeout: 5) { $0.contains { $0.hasPrefix("owntracks/alice/phone/event ") } })
        var locations = 0
        var ownTracks = 0
        for line in subscriber.lines.all {
            guard let space = line.firstIndex(of: " ") else { continue }
            let topic = line[..<space]
            let payload = String(line[line.index(after: space)...])
            if topic.hasPrefix("owntracks/") || topic == "van/location" || topic.hasPrefix("van/fence/") {
                #expect(!payload.contains("null"), "\(line)")
            }
            if topic == "van/location" {
                locations += 1
                let message = try #require(jsonObject(payload))
                #expect(message["lat"] != nil && message["accuracy"] != nil)
                #expect(message["alt"] == nil && message["speed"] == nil && message["track"] == nil, "\(line)")
            } else if topic == "owntracks/alice/phone" {
                ownTracks += 1
                let message = try #require(jsonObject(payload))
                #expect(message["acc"] != nil)
                #expect(message["alt"] == nil && message["vel"] == nil && message["cog"] == nil, "\(line)")
            }
        }
        #expect(locations > 0 && ownTracks > 0, "\(subscriber.lines.all.prefix(5))")
    }
}
