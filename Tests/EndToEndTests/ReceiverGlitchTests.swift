import Foundation
import Testing

/// Receiver glitches through the built binary: a capture with a 1 km jump (a receiver that
/// restarted elsewhere, a looped route starting over) and one with a single outlier fix, replayed
/// into a state file; the events, the track and the odometer are read back from what the binary
/// printed and stored.
@Suite struct ReceiverGlitchTests {
    /// Metres per degree of longitude at 47° N (on the sphere the engine uses).
    static let metresPerDegreeEast = 6_371_008.8 * Double.pi / 180 * cos(47 * Double.pi / 180)

    static func longitude(east: Double) -> Double { 8 + east / metresPerDegreeEast }

    /// One fix a second along 47° N, `positions[i]` metres east of 8° E at second `i`, at 20 m/s
    /// (38.9 knots) as the receiver says, from 2026-02-03 10:00:00 UTC.
    static func capture(_ positions: [Double], in folder: URL) throws -> String {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        var text = ""
        for (second, east) in positions.enumerated() {
            let time = String(format: "10%02d%02d.00", second / 60, second % 60)
            let degrees = longitude(east: east)
            let lon = String(format: "%03d%07.4f", Int(degrees), (degrees - Double(Int(degrees))) * 60)
            text += checksummed("GPGGA,\(time),4700.0000,N,\(lon),E,1,09,0.9,512.3,M,47.0,M,,")
            text += checksummed("GPRMC,\(time),A,4700.0000,N,\(lon),E,38.9,90.0,030226,,,A")
        }
        let path = folder.appendingPathComponent("drive.nmea").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Circles of 40 m on the road, `east` metres east of 8° E.
    static func fences(_ circles: [(id: String, east: Double)], in folder: URL) throws -> String {
        let features = circles.map { circle in
            """
            {"type":"Feature","id":"\(circle.id)","geometry":{"type":"Point","coordinates":[\(longitude(east: circle.east)),47.0]},"properties":{"radius":40}}
            """
        }
        let path = folder.appendingPathComponent("fences.geojson").path
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func events(_ stdout: String) -> [(type: String, fence: String?)] {
        stdout.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let type = object["type"] as? String
            else { return nil }
            return (type, (object["fence"] as? [String: Any])?["id"] as? String)
        }
    }

    static func odometer(_ state: String) throws -> Double {
        try SyncCommandTests.query(state, "SELECT sum(metres) AS metres FROM odometer").first
            .flatMap { ($0["metres"] as? NSNumber)?.doubleValue } ?? 0
    }

    /// 10:00:00 UTC on the capture's day, in ms.
    static let start: Int64 = 1_770_112_800_000

    /// A minute east at 20 m/s, then the receiver is a kilometre farther on (it restarted, or a
    /// looped route began again) and drives another minute from there. Two fences lie on the way
    /// it did not drive: no `cross` for them, the odometer counts the two minutes (2.36 km, not
    /// 3.4), and the first fix at the new place, not yet confirmed, is not in the track.
    @Test func aJumpIsContinuedFromWithoutTheWayBetween() throws {
        let folder = try SyncCommandTests.folder()
        let before = (0..<60).map { Double($0) * 20 }
        let after = (0..<60).map { 2200 + Double($0) * 20 }
        let capture = try Self.capture(before + after, in: folder)
        let fences = try Self.fences(
            [("start", 0), ("gap-1", 1500), ("gap-2", 1900), ("arrival", 2400)], in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let result = try runGPSFence(["replay", capture, "--fences", fences, "--state", state, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = Self.events(result.stdout)
        #expect(!events.contains { $0.type == "cross" }, "\(result.stdout)")
        #expect(!events.contains { $0.fence?.hasPrefix("gap") == true }, "\(result.stdout)")
        #expect(events.contains { $0.type == "enter" && $0.fence == "arrival" }, "the drive goes on: \(result.stdout)")
        let metres = try Self.odometer(state)
        #expect(abs(metres - 2360) < 60, "odometer \(metres) m for 2 x 59 s at 20 m/s")
        let times = try SyncCommandTests.trackTimes(state)
        #expect(!times.contains(Self.start + 60_000), "the unconfirmed fix at the new place is not in the track")
        #expect(times.contains(Self.start + 61_000), "the confirming fix is")
        #expect(times.count == 119)
        #expect(result.stderr.contains("1 fixes ignored"), "\(result.stderr)")
        let status = try runGPSFence(["status", "--state", state, "--json"])
        #expect(status.stdout.contains(#""ignored_fixes":1"#), "\(status.stdout)")
    }

    /// `simulate --loop` into a live `run`: at the end of each lap the receiver is back at the
    /// start, 600 m behind. The way back passes the fence in the middle of the route: no `cross`
    /// for it, while each lap still enters and leaves it.
    @Test func aLoopStartingOverCrossesNothing() throws {
        let folder = try SyncCommandTests.folder()
        let route = folder.appendingPathComponent("route.geojson")
        let end = Self.longitude(east: 600)
        try
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[8.0,47.0],[\#(end),47.0]]},"properties":{}}"#
            .write(to: route, atomically: true, encoding: .utf8)
        let fences = try Self.fences([("middle", 300)], in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        // 50 m/s: a lap of 12 s.
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "9600", "--speed", "50", "--loop",
        ])
        let pty = simulator.readFirstLine()
        let run = try BackgroundGPSFence(
            ["run", "--device", pty, "--baud", "9600", "--fences", fences, "--state", state, "--json"])
        let output = LineCollector(run.output.fileHandleForReading)
        func entered() -> Int { output.all.filter { $0.contains(#""type":"enter""#) }.count }
        let laps = output.wait(timeout: 60) { _ in entered() >= 3 }
        run.signal(SIGINT)
        _ = run.finish()
        simulator.signal(SIGINT)
        _ = simulator.finish()
        output.finish()
        #expect(laps, "three laps: \(output.all)")
        #expect(!output.all.contains { $0.contains(#""type":"cross""#) }, "\(output.all)")
        let status = try runGPSFence(["status", "--state", state, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(object?["ignored_fixes"] as? Int ?? 0 >= 2, "one fix at each lap's start: \(status.stdout)")
    }

    /// `--max-speed` is a speed: zero, negative or not finite is refused, naming the option.
    @Test func maxSpeedMustBePositive() throws {
        let folder = try SyncCommandTests.folder()
        let capture = try Self.capture([0, 20], in: folder)
        let fences = try Self.fences([("road", 0)], in: folder)
        for value in ["0", "-5", "inf"] {
            let result = try runGPSFence(["replay", capture, "--fences", fences, "--max-speed", value])
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("--max-speed must be"), "\(value): \(result.stderr)")
        }
        let accepted = try runGPSFence(["replay", capture, "--fences", fences, "--max-speed", "300"])
        #expect(accepted.status == 0, "\(accepted.stderr)")
    }

    /// One fix a kilometre off, in the middle of a drive (multipath): ignored, no event for the
    /// fence it lands in or the one it would have crossed, no odometer, no track point.
    @Test func aSingleOutlierIsIgnored() throws {
        let folder = try SyncCommandTests.folder()
        var positions = (0..<60).map { Double($0) * 20 }
        // A kilometre back west, behind where the drive began.
        positions[30] = 600 - 1000
        let capture = try Self.capture(positions, in: folder)
        let fences = try Self.fences([("road", 300), ("behind", -100), ("outlier", -400)], in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let result = try runGPSFence(["replay", capture, "--fences", fences, "--state", state, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = Self.events(result.stdout)
        #expect(events.filter { $0.fence != nil }.map(\.fence) == ["road", "road"], "\(result.stdout)")
        #expect(events.filter { $0.fence == "road" }.map(\.type) == ["enter", "exit"])
        let metres = try Self.odometer(state)
        #expect(abs(metres - 1180) < 40, "odometer \(metres) m for 59 s at 20 m/s")
        let times = try SyncCommandTests.trackTimes(state)
        #expect(!times.contains(Self.start + 30_000))
        #expect(times.count == 59)
        let status = try runGPSFence(["status", "--state", state])
        #expect(status.stdout.contains("ignored fixes  1"), "\(status.stdout)")
    }
}
