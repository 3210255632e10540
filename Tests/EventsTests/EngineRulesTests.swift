import NMEA
import Testing

@testable import Events
@testable import Fences

/// The engine's side of the fence rules (docs/fences.md, "Rules"), on the fixes of
/// `EventEngineTests` (the start is Tuesday 2026-02-03 10:15:00 UTC).
@Suite struct EngineRulesTests {
    /// Inside all along, a fix every 10 s, `dwell` 30 s, and a window open 10:15-10:16 and
    /// 10:17-10:18 UTC: enter at 0 s and dwell at 30 s; at 60 s the window closes, silently (no
    /// exit, no dwell); at 120 s it opens again with the receiver inside: a new initial enter
    /// (the old stay was forgotten) and a dwell 30 s later; at 180 s it closes again.
    @Test func aClosedWindowForgetsTheStayAndOpeningEvaluatesAgain() throws {
        let fences = EventEngineTests.circle(
            radius: 50, properties: #""dwell":30,"active":"Tu 10:15-10:16,10:17-10:18""#)
        let fixes = (0...24).map { EventEngineTests.fix(Double($0 * 10), 0, speed: 0) }
        var still = EventSettings()
        still.stationary = nil  // standing still: no motion events in the way
        let events = try EventEngineTests.run(fences, fixes, settings: still)
        #expect(events == ["enter@0", "dwell@30", "enter@120", "dwell@150"], "\(events)")
        // `--no-initial` is about the start of a run: the window opening still says enter.
        var quiet = still
        quiet.initial = false
        #expect(try EventEngineTests.run(fences, fixes, settings: quiet) == ["dwell@30", "enter@120", "dwell@150"])
    }

    /// Fix times that go back (a capture spliced from two drives) are judged again at once: open
    /// at 0 s (10:15:00), closed at 70 s (10:16:10), open at 50 s (10:15:50) again.
    @Test func aFixTimeThatGoesBackIsJudgedAgain() throws {
        let fences = EventEngineTests.circle(radius: 50, properties: #""active":"Tu 10:15-10:16""#)
        let fixes = [0.0, 70, 50].map { EventEngineTests.fix($0, 0, speed: 0) }
        #expect(try EventEngineTests.run(fences, fixes) == ["enter@0", "enter@50"])
    }

    /// Expiry while outside: no exit, only `unregistered`, and the fence raises nothing after
    /// (the receiver drives into it at 40 s; it expired at 10:15:30, 30 s).
    @Test func expiryOutsideIsOnlyUnregistered() throws {
        let fences = EventEngineTests.circle(radius: 50, properties: #""expires":"2026-02-03T10:15:30Z""#)
        let fixes = (0...6).map { EventEngineTests.fix(Double($0 * 10), -200 + 40 * Double($0)) }
        #expect(try EventEngineTests.run(fences, fixes) == ["unregistered@30"])
    }
}
