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

    /// `delay` 20 s on a 50 m circle (exit distance 10 m: `hysteresis`), a fix a second: out to
    /// 80 m from 10 s to 24 s (15 s beyond) and back, no exit; out again from 41 s, where a fix too
    /// inaccurate to use (at 50 s) neither counts nor breaks the run: the exit comes at 61 s, the
    /// first fix 20 s after the first one beyond.
    @Test func aDelayIgnoresAShortExcursionAndTellsALongOneWhenItHasLasted() throws {
        var fixes: [Fix] = []
        for second in 0...80 {
            let out = (10...24).contains(second) || second >= 41
            fixes.append(EventEngineTests.fix(Double(second), out ? 80 : 0, accuracy: second == 50 ? 150 : 4.5))
        }
        var still = EventSettings()
        still.stationary = nil
        let delayed = EventEngineTests.circle(radius: 50, properties: #""dwell":1000,"delay":20"#)
        #expect(try EventEngineTests.run(delayed, fixes, settings: still) == ["enter@0", "exit@61"])
        // The same fixes without a delay: each excursion is an exit at its second fix beyond.
        let plain = EventEngineTests.circle(radius: 50, properties: #""dwell":1000"#)
        #expect(
            try EventEngineTests.run(plain, fixes, settings: still) == ["enter@0", "exit@11", "enter@25", "exit@42"])
    }

    /// One fix back within the exit distance starts the count again: beyond from 10 s, within at
    /// 25 s (inside the exit distance, still outside the circle: 55 m), beyond again from 26 s:
    /// the exit at 46 s. A fix every 5 s: the exit is the first fix at least 20 s after the first
    /// one beyond (12 s -> 32 s, not 30 s). A delay of 255 s at a fix a second confirms the exit at
    /// the 256th fix beyond, which a count of fixes that wrapped would take for the first.
    @Test func aDelayStartsAgainOnAFixWithinAndCountsFixTime() throws {
        var still = EventSettings()
        still.stationary = nil
        let delayed = EventEngineTests.circle(radius: 50, properties: #""dwell":1000,"delay":20"#)
        let back = (0...60).map { second in
            EventEngineTests.fix(Double(second), second < 10 ? 0 : second == 25 ? 55 : 80)
        }
        #expect(try EventEngineTests.run(delayed, back, settings: still) == ["enter@0", "exit@46"])
        let sparse = [0.0, 7, 12, 17, 22, 27, 32, 37].map { EventEngineTests.fix($0, $0 < 10 ? 0 : 80) }
        #expect(try EventEngineTests.run(delayed, sparse, settings: still) == ["enter@0", "exit@32"])
        let long = EventEngineTests.circle(radius: 50, properties: #""dwell":1000,"delay":255"#)
        let night = (0...300).map { EventEngineTests.fix(Double($0), $0 < 10 ? 0 : 80) }
        #expect(try EventEngineTests.run(long, night, settings: still) == ["enter@0", "exit@265"])
    }
}
