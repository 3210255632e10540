import NMEA
import Testing

@testable import Events
@testable import Fences

/// Receiver glitches: which fixes are believed, ignored, or taken as a jump to a new place, and
/// what a jump does (and does not do) to the fences.
@Suite struct FixPlausibilityTests {
    typealias Verdict = FixPlausibility.Verdict

    /// `east` metres east of the centre at `second`, at 20 m/s (a van on a main road).
    static func fix(_ second: Double, _ east: Double, speed: Double? = 20, accuracy: Double? = 4.5) -> Fix {
        EventEngineTests.fix(second, east, accuracy: accuracy, speed: speed)
    }

    static func verdicts(_ fixes: [Fix], maxSpeed: Double = 100) -> [Verdict] {
        var filter = FixPlausibility(maxSpeed: maxSpeed, maxAccuracy: 100)
        return fixes.map { filter.judge($0) }
    }

    @Test func aDriveIsBelieved() {
        let drive = (0..<30).map { Self.fix(Double($0), Double($0) * 20) }
        #expect(Self.verdicts(drive).allSatisfy { $0 == .believed })
    }

    @Test func oneOutlierIsIgnoredAndTheDriveGoesOn() {
        var fixes = (0..<5).map { Self.fix(Double($0), Double($0) * 20) }
        fixes.append(Self.fix(5, 1100))  // a kilometre off, for one fix
        fixes += (6..<9).map { Self.fix(Double($0), Double($0) * 20) }
        var filter = FixPlausibility(maxSpeed: 100, maxAccuracy: 100)
        let verdicts = fixes.map { filter.judge($0) }
        #expect(verdicts == Array(repeating: .believed, count: 5) + [.ignored] + Array(repeating: .believed, count: 3))
        #expect(filter.ignoredCount == 1)
    }

    @Test func twoFixesAgreeingAtTheNewPlaceAreAJump() {
        var fixes = (0..<5).map { Self.fix(Double($0), Double($0) * 20) }
        fixes += (5..<9).map { Self.fix(Double($0), 1000 + Double($0) * 20) }
        var filter = FixPlausibility(maxSpeed: 100, maxAccuracy: 100)
        let verdicts = fixes.map { filter.judge($0) }
        #expect(
            verdicts == Array(repeating: .believed, count: 5) + [.ignored, .jumped, .believed, .believed])
        #expect(filter.ignoredCount == 1, "the first fix at the new place is not used")
    }

    @Test func outliersThatDisagreeWithEachOtherAreAllIgnored() {
        var fixes = (0..<3).map { Self.fix(Double($0), Double($0) * 20) }
        fixes += [Self.fix(3, 3000), Self.fix(4, -3000), Self.fix(5, 100)]
        #expect(Self.verdicts(fixes) == [.believed, .believed, .believed, .ignored, .ignored, .believed])
    }

    /// The limit is the larger of --max-speed and twice the receiver's own speed: an aircraft
    /// saying 250 m/s is believed; the same step with the receiver saying 20 m/s is not.
    @Test func theReceiversOwnSpeedRaisesTheLimit() {
        let fast = [Self.fix(0, 0, speed: 250), Self.fix(1, 250, speed: 250), Self.fix(2, 500, speed: 250)]
        #expect(Self.verdicts(fast) == [.believed, .believed, .believed])
        let slow = [Self.fix(0, 0), Self.fix(1, 250), Self.fix(2, 500)]
        #expect(Self.verdicts(slow) == [.believed, .ignored, .ignored])
        #expect(Self.verdicts(slow, maxSpeed: 300) == [.believed, .believed, .believed])
    }

    /// A long silence (a tunnel) makes a long way drivable: it is believed at once.
    @Test func aLongGapIsNoGlitch() {
        let fixes = [Self.fix(0, 0), Self.fix(1, 20), Self.fix(61, 1220)]
        #expect(Self.verdicts(fixes) == [.believed, .believed, .believed])
    }

    /// Fixes the engine does not use anyway (no time, poor accuracy) are not judged and do not
    /// become the last believed fix.
    @Test func unusableFixesAreNotJudged() {
        var far = Self.fix(1, 5000, accuracy: 500)
        let fixes = [Self.fix(0, 0), far, Self.fix(2, 40)]
        #expect(Self.verdicts(fixes) == [.believed, .believed, .believed])
        far.time = nil
        #expect(Self.verdicts([Self.fix(0, 0), far, Self.fix(2, 40)]) == [.believed, .believed, .believed])
    }

    /// After a jump the engine goes on from the new place: the fences between the two places are
    /// not crossed, and the fence at the new place is entered (not as at the start).
    @Test func theEngineDoesNotCrossTheWayOfAJump() throws {
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"between","geometry":{"type":"Point","coordinates":[\(lon(500)),\(EventEngineTests.centre.lat)]},"properties":{"radius":30}},
            {"type":"Feature","id":"there","geometry":{"type":"Point","coordinates":[\(lon(1000)),\(EventEngineTests.centre.lat)]},"properties":{"radius":30}}]}
            """)
        func events(jump: Bool) -> [String] {
            let engine = EventEngine(fences: fences)
            var seen: [String] = []
            let record: (GeofenceEvent) -> Void = { event in
                if event.kind != .registered { seen.append("\(event.kind.rawValue) \(fences.ids[event.fence!].text)") }
            }
            engine.process(Self.fix(0, 0), record)
            if jump {
                engine.process(afterJump: Self.fix(1, 1000), record)
            } else {
                engine.process(Self.fix(1, 1000), record)
            }
            return seen
        }
        #expect(events(jump: false) == ["cross between", "enter there"], "without the jump: the straight way")
        #expect(events(jump: true) == ["enter there"])
    }

    /// The longitude `east` metres east of the test centre.
    private func lon(_ east: Double) -> Double {
        Geodesy.destination(
            lat: EventEngineTests.centre.lat, lon: EventEngineTests.centre.lon, bearing: 90, distance: east
        ).lon
    }
}
