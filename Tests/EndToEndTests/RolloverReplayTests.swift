import Foundation
import Testing

/// GPS week rollover on replay (docs/nmea.md): a capture that `record` made names its recording
/// day, and a receiver that reported dates 1024 or 2048 weeks early in it is corrected on replay,
/// said once as an `error` event; the events keep the times of the true capture.
@Suite struct RolloverReplayTests {
    /// The bridge capture with every RMC date moved back by `weeks` (computed with Foundation's
    /// calendar, not the decoder's), checksums recomputed, under a `record`-style header.
    func rolledBack(by weeks: Int, header: Bool) throws -> String {
        let original = try String(
            contentsOf: packageRoot.appendingPathComponent("captures/bridge/capture.nmea"), encoding: .utf8)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var lines = header ? ["# gpsfence record", "# device: /dev/ttyACM0", "# start: 2026-02-03T10:14:59.000Z"] : []
        for line in original.split(whereSeparator: \.isNewline).map(String.init) where !line.hasPrefix("#") {
            guard line.hasPrefix("$GPRMC") else {
                lines.append(line)
                continue
            }
            var fields = String(line.dropFirst().prefix { $0 != "*" }).split(
                separator: ",", omittingEmptySubsequences: false
            )
            .map(String.init)
            let ddmmyy = fields[9]
            let day = Int(ddmmyy.prefix(2))!
            let month = Int(ddmmyy.dropFirst(2).prefix(2))!
            let year = 2000 + Int(ddmmyy.suffix(2))!
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            let earlier = calendar.dateComponents(
                [.year, .month, .day], from: calendar.date(byAdding: .day, value: -7 * weeks, to: date)!)
            fields[9] = String(format: "%02d%02d%02d", earlier.day!, earlier.month!, earlier.year! % 100)
            let body = fields.joined(separator: ",")
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            lines.append("$" + body + String(format: "*%02X", sum))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    struct Printed {
        var events: [(type: String, time: String)] = []
        var errors: [String] = []
    }

    func replay(_ capture: String) throws -> Printed {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-rollover-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("capture.nmea").path
        try capture.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["replay", path, "--fences", "captures/bridge/fences.geojson", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        var printed = Printed()
        for line in result.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let type = try #require(object["type"] as? String)
            if type == "error" {
                printed.errors.append(object["message"] as? String ?? "")
            } else {
                printed.events.append((type, object["time"] as? String ?? ""))
            }
        }
        return printed
    }

    @Test(arguments: [1024, 2048])
    func aRolledBackRecordingReplaysWithItsTrueTimes(weeks: Int) throws {
        let truth = try replay(rolledBack(by: 0, header: true))
        #expect(truth.errors.isEmpty)
        #expect(truth.events.contains { $0.type == "enter" })
        #expect(truth.events.first?.time.hasPrefix("2026-02-03T10:15") == true)

        let rolled = try replay(rolledBack(by: weeks, header: true))
        #expect(rolled.events.map(\.type) == truth.events.map(\.type))
        #expect(rolled.events.map(\.time) == truth.events.map(\.time))
        #expect(rolled.errors.count == 1)
        #expect(rolled.errors.first?.contains("\(weeks) weeks early") == true, "\(rolled.errors)")
    }

    /// Without the header nothing says when the capture was made: gpsd's logs hold true dates from
    /// 2001 on, so a date from 2006 is kept as it is, and nothing is said.
    @Test func aCaptureWithoutARecordingDayKeepsItsDates() throws {
        let rolled = try replay(rolledBack(by: 1024, header: false))
        #expect(rolled.errors.isEmpty)
        #expect(rolled.events.first?.time.hasPrefix("2006-") == true, "\(rolled.events.first.map { $0.time } ?? "")")
    }
}
