import FenceBuilders
import NMEA
import Testing

@testable import Events
@testable import Fences

/// `stationary` / `moving` (docs/report.md, docs/events.md): slow and within 25 m for --stationary
/// seconds; moving again only beyond 25 m plus the accuracy on two consecutive fixes.
@Suite struct MotionEventTests {
    typealias E = EventEngineTests
    /// A fence far away, so only motion events come.
    static let farFence = E.circle(radius: 10).replacingOccurrences(
        of: "\(E.centre.lon),\(E.centre.lat)", with: "9.5,47.5")

    @Test func stationaryAfterTheDelayCountedFromTheFirstSlowFix() throws {
        // Driving at 10 m/s until t = 9, then parked from t = 10: stationary at t = 130.
        var fixes = (0..<10).map { E.fix(Double($0), Double($0) * 10 - 200, speed: 10) }
        fixes += (10...200).map { E.fix(Double($0), -100, speed: 0.1) }
        #expect(try E.run(Self.farFence, fixes) == ["stationary@130"])
        var settings = EventSettings()
        settings.stationary = 30
        #expect(try E.run(Self.farFence, fixes, settings: settings) == ["stationary@40"])
        settings.stationary = 0
        #expect(try E.run(Self.farFence, fixes, settings: settings) == [])
    }

    /// Creeping in a queue: slow, but 30 m from where the calm began after 60 s: no stop yet; the
    /// window starts again where it left the 25 m circle.
    @Test func creepingBeyondTheRadiusRestartsTheWindow() throws {
        // 0.4 m/s east for 150 s (60 m), then still.
        var fixes = (0...150).map { E.fix(Double($0), Double($0) * 0.4, speed: 0.4) }
        fixes += (151...400).map { E.fix(Double($0), 60, speed: 0) }
        let events = try E.run(Self.farFence, fixes)
        // The window restarts at the first fix beyond 25 m of its start: t = 63 (25.2 m), then
        // t = 126 (25.2 m from 25.2); from t = 126 the receiver stays within 25 m (it ends at
        // 60 m, 9.6 m on): stationary at t = 246.
        #expect(events == ["stationary@246"])
    }

    /// A parked receiver's noise: position jumps of up to 20 m and speed spikes of 1.5 m/s, and one
    /// wild fix 80 m off. None of it is `moving`: that needs two fixes in a row beyond 25 m + accuracy.
    @Test func jitterWhileParkedNeverMakesMoving() throws {
        var generator = SeededGenerator(seed: 11)
        var fixes = (0...130).map { E.fix(Double($0), 0, speed: 0) }
        for second in 131...1000 {
            let east = Double.random(in: -20...20, using: &generator)
            let north = Double.random(in: -20...20, using: &generator)
            let speed = second % 7 == 0 ? 1.5 : Double.random(in: 0...0.4, using: &generator)
            let wild = second == 500
            fixes.append(E.fix(Double(second), wild ? 80 : east * 0.7, north: wild ? 0 : north * 0.7, speed: speed))
        }
        #expect(try E.run(Self.farFence, fixes) == ["stationary@120"])
    }

    /// Driving off: the first fix beyond 25 m + 4.5 m is counted, the second confirms.
    @Test func movingOnTheSecondFixBeyondTheRadiusPlusTheAccuracy() throws {
        var fixes = (0...130).map { E.fix(Double($0), 0, speed: 0) }
        // 10 m/s from t = 131: 10, 20, 30 (first beyond 29.5), 40 (confirms) -> moving at t = 134.
        fixes += (131...140).map { E.fix(Double($0), Double($0 - 130) * 10, speed: 10) }
        #expect(try E.run(Self.farFence, fixes) == ["stationary@120", "moving@134"])
        // A poor fix widens the circle: with 40 m accuracy the reach is 65 m: 70 at t = 137, 80 at t = 138.
        var poor = (0...130).map { E.fix(Double($0), 0, speed: 0) }
        poor += (131...140).map { E.fix(Double($0), Double($0 - 130) * 10, accuracy: 40, speed: 10) }
        #expect(try E.run(Self.farFence, poor) == ["stationary@120", "moving@138"])
    }

    /// Parked inside a fence, then leaving: `exit` and `moving` on the same fix, fence events first (docs/report.md).
    @Test func motionEventsFollowTheFenceEventsOfTheirFix() throws {
        let fence = E.circle(radius: 15)
        var settings = EventSettings()
        settings.dwell = 1000
        settings.initial = false
        var fixes = (0...130).map { E.fix(Double($0), 0, speed: 0) }
        // 20 m steps: 20 (5 m out, inside the 10 m hysteresis), 40 (25 m out: first), 60 (confirms
        // the exit; and 60 > 29.5 m from the stop, the second beyond it after 40): both at t = 133.
        fixes += (131...135).map { E.fix(Double($0), Double($0 - 130) * 20, speed: 20) }
        #expect(try E.run(fence, fixes, settings: settings) == ["stationary@120", "exit@133", "moving@133"])
    }
}
