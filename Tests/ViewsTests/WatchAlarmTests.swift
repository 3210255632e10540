import Events
import Fences
import Foundation
import NMEA
import Store
import Testing

@testable import Views

/// `status --watch` with an alarm in the state file: a sounding one is the first thing under the
/// title, in red, with how to answer it; an answered one is only said further down, by `status`.
@Suite struct WatchAlarmTests {
    static func frameText(_ latch: AlarmLatch) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-watch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("state.sqlite").path
        let store = try StateStore(path: path)
        try store.commit(
            events: [], insideStates: [], fences: try FenceSet.parse(#"{"type":"FeatureCollection","features":[]}"#),
            outbox: [], alarm: .some(latch))
        let frame = try WatchReader(statePath: path).frame(now: latch.raisedAt.millisecondsSinceEpoch + 60_000)
        return WatchView.text(frame, interval: 1, color: true)
    }

    static let latch = AlarmLatch(
        cause: AlarmCause(eventID: "0123456789abcdef", kind: .exit), fenceID: .string("anchor"), condition: .outside,
        unanswered: true, raisedAt: UTCTime(millisecondsSinceEpoch: 1_780_000_000_000), distance: 52)

    @Test func aSoundingAlarmComesFirstInRed() throws {
        let lines = try Self.frameText(Self.latch).split(separator: "\n").map(String.init)
        let second = try #require(lines.dropFirst().first)
        // The time people read: the frame's zone (UTC here), not an ISO timestamp.
        #expect(second.hasPrefix("\u{1B}[1;97;41m  ALARM          SOUNDING since 2026-05-28 20:26:40Z"), "\(lines)")
        #expect(second.contains("(exit anchor)") && second.contains("'gpsfence ack'"), "\(second)")
        #expect(lines.filter { $0.contains("ALARM") }.count == 1, "said once: \(lines)")
    }

    @Test func anAnsweredAlarmIsNotAtTheTop() throws {
        var answered = Self.latch
        answered.unanswered = false
        let lines = try Self.frameText(answered).split(separator: "\n").map(String.init)
        #expect(!(lines.dropFirst().first ?? "").contains("ALARM"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  alarm          acknowledged (exit anchor") }, "\(lines)")
    }
}
