import NMEA
import Testing

@testable import Events
@testable import Fences

/// An exit `delay`'s count is part of the saved fence state (docs/fences.md, "delay"): an engine
/// restored from another's snapshot carries on with the count, and one that broke off stays
/// broken off. A circle of 50 m with a delay of 20 s, the fixes of `EventEngineTests` (80 m east
/// is beyond it, 0 m inside).
@Suite struct ExitDelayStateTests {
    static let fences = EventEngineTests.circle(radius: 50, properties: #""dwell":1000,"delay":20"#)

    static var still: EventSettings {
        var settings = EventSettings()
        settings.stationary = nil
        return settings
    }

    /// Runs `fixes` through `engine`: "type@second" of every event but `registered`.
    static func run(_ engine: EventEngine, _ fixes: [(Double, Double)]) -> [String] {
        var out: [String] = []
        for (second, offset) in fixes {
            engine.process(EventEngineTests.fix(second, offset)) { event in
                guard event.kind != .registered else { return }
                let at = (event.time.millisecondsSinceEpoch - EventEngineTests.start.millisecondsSinceEpoch) / 1000
                out.append("\(event.kind.rawValue)@\(at)")
            }
        }
        return out
    }

    static func milliseconds(_ second: Int64) -> Int64 { EventEngineTests.start.millisecondsSinceEpoch + second * 1000 }

    /// Beyond from 10 s; the engine stops after 15 s and another takes over from its snapshot at
    /// 40 s (25 s without fixes): the exit is the first fix 20 s after 10 s, the new engine's
    /// first, as an engine that kept running through a gap in the fixes would say it.
    @Test func aRestoredCountCarriesOnThroughTheGap() throws {
        let set = try FenceSet.parse(Self.fences)
        let first = EventEngine(fences: set, settings: Self.still)
        let before = first.quietStateChanges
        #expect(Self.run(first, (0...15).map { (Double($0), $0 < 10 ? 0 : 80) }) == ["enter@0"])
        #expect(first.quietStateChanges > before, "the count began without an event: the caller must save it")
        let saved = first.snapshot()
        #expect(saved.map(\.exitDelaySince) == [Self.milliseconds(10)])

        let second = EventEngine(fences: set, settings: Self.still)
        second.restore(saved)
        #expect(Self.run(second, (40...45).map { (Double($0), 80) }) == ["exit@40"])

        // Without the saved count (a record of an older state file), the delay begins again.
        var older = saved
        older[0].exitDelaySince = nil
        let fresh = EventEngine(fences: set, settings: Self.still)
        fresh.restore(older)
        #expect(Self.run(fresh, (40...65).map { (Double($0), 80) }) == ["exit@60"])

        // The same fixes through one engine, the gap included.
        let through = EventEngine(fences: set, settings: Self.still)
        let fixes = (0...15).map { (Double($0), $0 < 10 ? 0.0 : 80) } + (40...45).map { (Double($0), 80.0) }
        #expect(Self.run(through, fixes) == ["enter@0", "exit@40"])
    }

    /// Beyond from 10 s, back within at 14 s: the count broke off, the snapshot says so (a change
    /// to save), and the restored engine begins the delay at its first fix beyond.
    @Test func aCountThatBrokeOffIsSavedAsNone() throws {
        let set = try FenceSet.parse(Self.fences)
        let first = EventEngine(fences: set, settings: Self.still)
        _ = Self.run(first, (0...13).map { (Double($0), $0 < 10 ? 0 : 80) })
        let during = first.quietStateChanges
        #expect(first.snapshot().first?.exitDelaySince == Self.milliseconds(10))
        _ = Self.run(first, [(14, 0)])
        #expect(first.quietStateChanges > during)
        #expect(first.snapshot().first?.exitDelaySince == nil)

        let second = EventEngine(fences: set, settings: Self.still)
        second.restore(first.snapshot())
        #expect(Self.run(second, (40...65).map { (Double($0), 80) }) == ["exit@60"])
    }

    /// A reload of the same fence (same id, same shape) keeps the count; a reshaped one starts
    /// fresh, as its inside state does.
    @Test func aReloadOfTheSameFenceKeepsTheCount() throws {
        let set = try FenceSet.parse(Self.fences)
        let old = EventEngine(fences: set, settings: Self.still)
        _ = Self.run(old, (0...15).map { (Double($0), $0 < 10 ? 0 : 80) })
        let reloaded = EventEngine(fences: try FenceSet.parse(Self.fences), settings: Self.still)
        reloaded.takeOver(from: old, match: FenceSetMatch(old: old.fences, new: reloaded.fences))
        #expect(Self.run(reloaded, (16...31).map { (Double($0), 80) }) == ["exit@30"])
    }

    /// Fences without a delay cost nothing and have nothing to save.
    @Test func withoutADelayThereIsNoCount() throws {
        let engine = EventEngine(
            fences: try FenceSet.parse(EventEngineTests.circle(radius: 50, properties: #""dwell":1000"#)),
            settings: Self.still)
        #expect(Self.run(engine, (0...10).map { (Double($0), $0 < 10 ? 0 : 80) }) == ["enter@0"])
        #expect(engine.quietStateChanges == 0)
        #expect(engine.snapshot().first?.exitDelaySince == nil)
    }
}
