import Foundation
import Testing

/// A capture replayed into a state file that already holds it: its events are in the file's log
/// already, so none are printed, and the replay says why instead of printing nothing.
@Suite struct ReplayIntoHeldStateTests {
    static let capture = "captures/bridge/capture.nmea"
    static let fences = "captures/bridge/fences.geojson"

    @Test func theSecondReplaySaysItsFixesWereSkippedAndWhy() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let arguments = ["replay", Self.capture, "--fences", Self.fences, "--state", state]
        let first = try runGPSFence(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("enter"))
        #expect(!first.stderr.contains("skipped"), "\(first.stderr)")

        let second = try runGPSFence(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.isEmpty, "\(second.stdout)")
        #expect(
            second.stderr.contains(
                "all 121 fixes of the capture skipped: they are at or before 2026-02-03 10:17:00Z, the last fix "
                    + "\(state) holds"), "\(second.stderr)")
        #expect(second.stderr.contains("replay into another --state"), "\(second.stderr)")
    }

    /// A capture that goes on past the state file's last fix: the fixes it holds are skipped and
    /// counted, the later ones give their events.
    @Test func aLongerCaptureSkipsOnlyWhatTheStateHolds() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // By bytes: the capture's "\r\n" is one Character, which a split on "\n" would not cut.
        let lines = try Data(contentsOf: packageRoot.appendingPathComponent(Self.capture))
            .split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
        // The capture up to its first sentence of 10:16:00 (before the bridge's enter), then the whole.
        let cut = try #require(lines.firstIndex { $0.contains(",101600.") })
        let early = folder.appendingPathComponent("early.nmea")
        try (lines[..<cut].joined(separator: "\n") + "\n").write(to: early, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let first = try runGPSFence(["replay", early.path, "--fences", Self.fences, "--state", state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(!first.stdout.contains("enter"))

        let whole = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--state", state])
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(whole.stdout.contains("enter"), "\(whole.stdout)")
        #expect(whole.stderr.contains(" of 121 fixes of the capture skipped"), "\(whole.stderr)")
    }
}
