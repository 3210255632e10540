import Foundation
import SkyScenarios
import Testing

/// The receiver's own jamming report while it has no fix (u-blox's UBX-MON-RF saying `critical`
/// between the sentences of cycles without a position, its GSV turned off): the integrity monitor
/// hears it then too, through the built binary's `replay`.
@Suite struct JammedWithoutFixTests {
    /// UBX-MON-RF (class 0x0A, id 0x38), version 0, one RF block: `flags` (offset 1) holds the
    /// jamming state in bits 0-1, `jamInd` at offset 16.
    static func radioMonitor(jammingState: UInt8, indicator: UInt8) -> Data {
        var block = [UInt8](repeating: 0, count: 24)
        block[1] = jammingState
        block[16] = indicator
        return IntegrityReplayTests.ubxFrame(0x0A, 0x38, [0, 1, 0, 0] + block)
    }

    /// A minute at rest with a fix and healthy signals (MON-RF: no jamming), then a minute without
    /// a fix, GGA and RMC alone, after each of which MON-RF says `critical`: `jammed` with the
    /// reason `receiver_flag` within 10 s of the first such report, and nothing but `ok` before.
    @Test func aJammingReportWithoutAFixIsJammed() throws {
        let folder = try SyncCommandTests.folder()
        var noise = WrittenSky.Noise(seed: 5)
        var bytes = Data()
        for var cycle in WrittenSky.atRest(0..<120, noise: &noise) {
            let jammed = cycle.time >= 60
            if jammed { cycle.hasFix = false }
            let text = WrittenSky.nmea([cycle])
            // Without a fix the receiver lists no satellites (its GSV is off): only its own word
            // can tell a jam from any other loss of the fix.
            let lines = text.split(separator: "\r\n").filter { !jammed || !$0.hasPrefix("$GPGSV") }
            bytes += Data(lines.map { $0 + "\r\n" }.joined().utf8)
            bytes += Self.radioMonitor(jammingState: jammed ? 3 : 1, indicator: jammed ? 230 : 12)
        }
        let capture = folder.appendingPathComponent("jammed.ubx.nmea")
        try bytes.write(to: capture)
        let depot = try IntegrityReplayTests.depot(radius: 100, in: folder)
        let result = try runGPSFence(["replay", capture.path, "--fences", depot, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = IntegrityReplayTests.events(result.stdout)
        let integrity = events.filter { $0["type"] as? String == "integrity" }
        let jammed = try #require(integrity.first { $0["state"] as? String == "jammed" }, "\(result.stdout)")
        #expect((jammed["reasons"] as? [String] ?? []).contains("receiver_flag"), "\(jammed)")
        let second = IntegrityReplayTests.second(jammed) ?? .infinity
        #expect(second >= 60 && second - 60 <= 10, "\(jammed)")
        #expect(
            !integrity.contains { ($0["state"] as? String) != "ok" && (IntegrityReplayTests.second($0) ?? 0) < 60 },
            "\(integrity)")
        #expect(events.contains { $0["type"] as? String == "fix_lost" }, "the fix was lost: \(result.stdout)")
    }
}
