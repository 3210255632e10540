import FenceBuilders
import Foundation
import NMEA
import Testing

@testable import Events
@testable import Fences

/// `EventEngine.quietFixesAhead`: how many of the next fixes cannot raise an event, which a live
/// reader sleeps through. Its promise is checked against the engine itself: a fix it called quiet
/// must raise nothing when it comes.
@Suite struct EngineForesightTests {
    typealias Engine = EventEngineTests

    /// Fixes every 0.1 s moving east at `speed` from `from` metres east of the centre.
    static func drive(_ engine: EventEngine, from: Double, to: Double, speed: Double = 10) -> [Int] {
        var quiet: [Int] = []
        var offset = from
        var second = 0.0
        while offset <= to {
            engine.process(Engine.fix(second, offset, speed: speed)) { _ in }
            quiet.append(engine.quietFixesAhead(limit: 4))
            offset += speed / 10
            second += 0.1
        }
        return quiet
    }

    @Test func farFromEveryFenceTheNextFixesAreQuietAndNearABoundaryNone() throws {
        let engine = EventEngine(fences: try FenceSet.parse(Engine.circle(radius: 100)))
        // West of a 100 m circle, driving east at 10 m/s: 2.3 m a fix foreseen, 14.5 m of margin
        // (10 m and the 4.5 m accuracy).
        let quiet = Self.drive(engine, from: -400, to: -101)
        #expect(quiet.first == 0, "one fix gives no speed of its own yet")
        #expect(quiet[1..<100].allSatisfy { $0 == 4 }, "\(quiet)")
        // 10 m from the boundary nothing is foreseen quiet: the next fix might enter.
        #expect(quiet.suffix(10).allSatisfy { $0 == 0 }, "\(quiet.suffix(10))")
        #expect(quiet.dropFirst().allSatisfy { $0 >= 0 && $0 <= 4 })
        // Approaching, the count only falls.
        #expect(zip(quiet.dropFirst(), quiet.dropFirst(2)).allSatisfy { $0 >= $1 }, "\(quiet)")
    }

    @Test func deepInsideAFenceIsQuietOnceItsDwellHasFired() throws {
        let engine = EventEngine(
            fences: try FenceSet.parse(Engine.circle(radius: 1000, properties: "\"dwell\":1")))
        // Entered at the first fix; the dwell falls due 1 s later.
        var quiet: [Int] = []
        for tenth in 0..<20 {
            engine.process(Engine.fix(Double(tenth) / 10, Double(tenth), speed: 10)) { _ in }
            quiet.append(engine.quietFixesAhead(limit: 4))
        }
        // At 0.5 s the dwell is 0.5 s away: fix j (at 0.5 + 0.1 j) is foreseen quiet only while
        // twice its distance in time falls before that, so j = 1 and 2.
        #expect(quiet[5] == 2, "\(quiet)")
        #expect(quiet[8] == 0 && quiet[9] == 0, "\(quiet)")
        // Fired at 1.0 s: deep inside, nothing else is due.
        #expect(quiet[10...].allSatisfy { $0 == 4 }, "\(quiet)")
    }

    @Test func whatIsNotForeseenIsNeverCalledQuiet() throws {
        // A lost fix: the next usable one raises fix_acquired.
        let engine = EventEngine(fences: try FenceSet.parse(Engine.circle(radius: 100)))
        _ = Self.drive(engine, from: -900, to: -800)
        #expect(engine.quietFixesAhead(limit: 4) == 4)
        engine.silence(at: UTCTime(millisecondsSinceEpoch: Engine.start.millisecondsSinceEpoch + 60_000)) { _ in }
        #expect(engine.quietFixesAhead(limit: 4) == 0)

        // Inside a fence with a speed limit.
        let limited = EventEngine(
            fences: try FenceSet.parse(Engine.circle(radius: 1000, properties: "\"speed_limit\":50,\"dwell\":0")))
        _ = Self.drive(limited, from: 0, to: 30)
        #expect(limited.quietFixesAhead(limit: 4) == 0)

        // A heartbeat due in 0.25 s: only the next fix, 0.1 s on (twice that, 0.2 s, is before).
        var settings = EventSettings()
        settings.heartbeat = 1
        let beating = EventEngine(fences: try FenceSet.parse(Engine.circle(radius: 100)), settings: settings)
        for tenth in 0...7 { beating.process(Engine.fix(Double(tenth) / 10 - 0.05, -900 + Double(tenth))) { _ in } }
        #expect(beating.quietFixesAhead(limit: 4) == 1)

        // An approach distance counts as the fence's edge: 200 m out from a 100 m circle.
        let approaching = EventEngine(
            fences: try FenceSet.parse(Engine.circle(radius: 100, properties: "\"approach\":200")))
        let quiet = Self.drive(approaching, from: -400, to: -302)
        #expect(quiet[1..<50].allSatisfy { $0 == 4 }, "\(quiet)")
        #expect(quiet.suffix(5).allSatisfy { $0 == 0 }, "\(quiet)")
    }

    /// The promise, on random drives through a dense mix of fences with every event kind that
    /// depends on place or time: after each fix, the fixes it foresaw quiet raise nothing. The
    /// drives keep to what the foresight assumes (speed changing by at most 1 m/s a fix,
    /// positions scattered by up to 3 m).
    ///
    /// Two fields: a dense one, where events come often, and a sparser one, where the way between
    /// them is foreseen quiet for longer.
    @Test(arguments: [(300, 1500.0, 21 as UInt64), (150, 2000, 22)])
    func aFixForeseenQuietRaisesNoEvent(fenceCount: Int, halfSide: Double, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let engine = try Self.field(fenceCount: fenceCount, halfSide: halfSide, rules: false, random: &random)
        let drive = Self.randomDrive(engine, halfSide: halfSide, random: &random)
        #expect(drive.wronglyQuiet.isEmpty, "\(drive.wronglyQuiet.prefix(10))")
        // The drive raises plenty, and much of it is foreseen quiet.
        #expect(drive.events > 100, "\(drive.events) events")
        #expect(drive.checked > 2000, "\(drive.checked) fixes of 12,000 foreseen quiet")
    }

    /// The same promise with every rule on some fences: low speed limits the drive goes above and
    /// below, windows that open and close and fences that expire during the 20 minutes of the
    /// drive (10:15 to 10:35 UTC).
    @Test(arguments: [(300, 1500.0, 31 as UInt64), (150, 2000, 32)])
    func aFixForeseenQuietRaisesNoEventUnderTheRules(fenceCount: Int, halfSide: Double, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let engine = try Self.field(fenceCount: fenceCount, halfSide: halfSide, rules: true, random: &random)
        let drive = Self.randomDrive(engine, halfSide: halfSide, random: &random)
        #expect(drive.wronglyQuiet.isEmpty, "\(drive.wronglyQuiet.prefix(10))")
        // Every rule had its say, and the drive was still often foreseen quiet.
        for kind in ["speeding", "unregistered", "enter"] {
            #expect(drive.kinds.contains(kind), "\(kind) not raised: \(drive.kinds.sorted())")
        }
        #expect(drive.checked > 1000, "\(drive.checked) fixes of 12,000 foreseen quiet")
    }

    /// Random circles and rectangles around the centre, with dwell, approach and hysteresis; with
    /// `rules`, also speed limits, `active` windows and `expires` times.
    static func field(fenceCount: Int, halfSide: Double, rules: Bool, random: inout SeededGenerator) throws
        -> EventEngine
    {
        let centre = Engine.centre
        var features: [String] = []
        for index in 0..<fenceCount {
            let north = Double.random(in: -halfSide...halfSide, using: &random)
            let east = Double.random(in: -halfSide...halfSide, using: &random)
            let lat = centre.lat + north / Geodesy.metresPerDegree
            let lon = centre.lon + east / (Geodesy.metresPerDegree * cos(centre.lat * .pi / 180))
            var extra = ",\"dwell\":\(Int.random(in: 2...20, using: &random))"
            if index % 3 == 0 { extra += ",\"approach\":\(Int.random(in: 30...200, using: &random))" }
            if index % 5 == 0 { extra += ",\"hysteresis\":\(Int.random(in: 0...30, using: &random))" }
            if rules {
                if index % 3 == 1 { extra += ",\"speed_limit\":\(Int.random(in: 2...10, using: &random))" }
                if index % 7 == 0 {
                    let opens = Int.random(in: 15...33, using: &random)
                    let closes = Int.random(in: (opens + 1)...35, using: &random)
                    extra += ",\"active\":\"Tu 10:\(opens)-10:\(closes)\""
                }
                if index % 11 == 0 {
                    let minute = Int.random(in: 15...34, using: &random)
                    let second = Int.random(in: 10...59, using: &random)
                    let millisecond = Int.random(in: 100...999, using: &random)
                    extra += ",\"expires\":\"2026-02-03T10:\(minute):\(second).\(millisecond)Z\""
                }
            }
            if index % 2 == 0 {
                features.append(
                    circleFeature(
                        id: "\"c\(index)\"", lon: lon, lat: lat, radius: Double.random(in: 15...150, using: &random),
                        extra: extra))
            } else {
                let half = Double.random(in: 0.0002...0.0012, using: &random)
                features.append(
                    polygonFeature(
                        id: "\"p\(index)\"", rings: [square(lon - half, lat - half / 2, lon + half, lat + half / 2)],
                        properties: "{" + extra.dropFirst() + "}"))
            }
        }
        var settings = EventSettings()
        settings.heartbeat = 30
        settings.stationary = 4
        settings.approach = nil
        return EventEngine(
            fences: try FenceSet.parse(
                "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"),
            settings: settings)
    }

    /// 12,000 fixes at 10 Hz through the field; after each, the foresight is asked, and the fixes
    /// it called quiet are checked to raise nothing.
    static func randomDrive(_ engine: EventEngine, halfSide: Double, random: inout SeededGenerator) -> (
        wronglyQuiet: [String], events: Int, checked: Int, kinds: Set<String>
    ) {
        let centre = Engine.centre
        var north = 0.0
        var east = 0.0
        var speed = 8.0
        var bearing = 45.0
        var silentThrough = -1
        var checked = 0
        var events = 0
        var kinds: Set<String> = []
        var wronglyQuiet: [String] = []
        for index in 0..<12_000 {
            // Speed wanders, with stops; the heading turns slowly and bounces off the square.
            if index % 600 < 80 {
                speed = max(0, speed - 1)
            } else {
                speed = min(30, max(0, speed + Double.random(in: -1...1, using: &random)))
            }
            bearing += Double.random(in: -6...6, using: &random)
            north += cos(bearing * .pi / 180) * speed / 10
            east += sin(bearing * .pi / 180) * speed / 10
            if abs(north) > halfSide + 100 || abs(east) > halfSide + 100 { bearing += 180 }
            let scatterAngle = Double.random(in: 0..<360, using: &random)
            let scatter = Double.random(in: 0...3, using: &random)
            let lat = centre.lat + (north + cos(scatterAngle) * scatter) / Geodesy.metresPerDegree
            let lon =
                centre.lon + (east + sin(scatterAngle) * scatter)
                / (Geodesy.metresPerDegree * cos(centre.lat * .pi / 180))
            let fix = Fix(
                time: UTCTime(millisecondsSinceEpoch: Engine.start.millisecondsSinceEpoch + Int64(index) * 100),
                timeOfDay: TimeOfDay(milliseconds: 0), latitude: lat, longitude: lon, speed: speed,
                track: bearing.truncatingRemainder(dividingBy: 360) + (bearing < 0 ? 360 : 0), mode: .threeD,
                accuracy: 4.5)
            var raised: [String] = []
            engine.process(fix) { event in
                if event.kind != .registered { raised.append(event.kind.rawValue) }
            }
            events += raised.count
            kinds.formUnion(raised)
            if index <= silentThrough {
                checked += 1
                if !raised.isEmpty { wronglyQuiet.append("fix \(index): \(raised)") }
            }
            let quiet = engine.quietFixesAhead(limit: 4)
            silentThrough = max(silentThrough, index + quiet)
        }
        return (wronglyQuiet, events, checked, kinds)
    }
}
