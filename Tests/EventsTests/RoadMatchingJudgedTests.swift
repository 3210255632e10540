import Foundation
import NMEA
import Testing

@testable import Events
@testable import Fences

/// The cases the drives on real OpenStreetMap roads found (scripts/osm_drives.py, OSMDriveTests),
/// laid out in metres as `RoadMatchingTests` lays its roads: a service tunnel under a street, a
/// 30 road that ends where a 40 road goes on, a service road beside a street that it does not join.
@Suite struct RoadMatchingJudgedTests {
    typealias M = RoadMatchingTests

    /// A street with a deep service tunnel (limit 10) under it, 3 m to the side of its line, for
    /// 400 m, mapped as two ways that meet under the street's middle: Helsinki's tunnels under
    /// Fabianinkatu run so.
    static let streetOverTunnel = [
        M.road("street", [(-600, 0), (600, 0)], #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
        M.road(
            "tunnel", [(-200, -3), (0, -3)],
            #""highway":"service","tunnel":"yes","layer":-3,"speed_limit_kmh":10,"clearance":2.5,"radius":3.5"#),
        M.road(
            "tunnel-east", [(0, -3), (200, -3)],
            #""highway":"service","tunnel":"yes","layer":-3,"speed_limit_kmh":10,"clearance":2.5,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aFirstFixOnAStreetOverATunnelIsTheStreet(rate: Double) throws {
        // The receiver's first fix over the tunnel's middle, 10 m before its two ways meet (no
        // portal), in the eastbound lane (1.75 m south of the street's line, 1.25 m from the
        // tunnel's): nearer the tunnel's line.
        let drive = M.drive(from: (-10, -1.75), to: (150, -1.75), speed: 0.9 * 30 / 3.6, rate: rate)
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 4.2)
        let engine = try M.engine(Self.streetOverTunnel, settings: settings)
        #expect(M.events(engine, drive) == [#"enter "street""#])
        #expect(engine.roadBeingDriven == 0)
    }

    /// A 30 road that ends where a 40 road goes on, straight ahead.
    static let slowThenFast = [
        M.road("slow", [(-400, 0), (0, 0)], #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
        M.road("fast", [(0, 0), (400, 0)], #""highway":"secondary","speed_limit_kmh":40,"radius":5.25"#),
    ]

    @Test func aRoadIsLeftAtTheEndOfItsLine() throws {
        // Up to 3 m past the end of the slow road's line, 3 m south of it: 4.2 m from its end, 3 m
        // from the fast road's line. The road driven before no longer counts as nearer there.
        let engine = try M.engine(Self.slowThenFast)
        let drive = M.drive(from: (-100, -3), to: (3, -3), speed: 8, rate: 10)
        _ = M.events(engine, drive)
        #expect(engine.roadBeingDriven == 1)
    }

    @Test func aCarThatSpeedsUpAsTheFasterRoadBeginsIsNotSpeeding() throws {
        // 27 km/h (90 % of 30) to the junction, then 1.5 m/s² up to 36 km/h (90 % of 40), at 10 Hz,
        // its error 5 m behind (a receiver's error drifts over tens of seconds): past 30 km/h 4 m
        // after the junction, where the fixes are still 1 m before it.
        var fixes: [Fix] = []
        var x = -150.0
        var v = 0.9 * 30 / 3.6
        var t = 0.0
        while x < 150 {
            fixes.append(M.fix(t, x - 5, -1.75, speed: v, track: 90))
            if x >= 0 { v = min(0.9 * 40 / 3.6, v + 1.5 / 10) }
            x += v / 10
            t += 0.1
        }
        let engine = try M.engine(Self.slowThenFast)
        #expect(!M.events(engine, fixes).contains { $0.hasPrefix("speeding") })
        // A stretch above 30 of two seconds and more on the slow road is speeding all the same.
        let fast = M.drive(from: (-150, -1.75), to: (-50, -1.75), speed: 33 / 3.6, rate: 10)
        #expect(M.events(try M.engine(Self.slowThenFast), fast) == [#"enter "slow""#, #"speeding "slow""#])
    }

    /// A one-lane street, and 4.4 m beside it a service road with a 3.5 m clearance that does not
    /// join it (it leads into a tunnel): Töölönlahdenkatu in Helsinki.
    static let besideService = [
        M.road("street", [(-400, 0), (400, 0)], #""highway":"unclassified","speed_limit_kmh":30,"radius":1.75"#),
        M.road("service", [(-60, 4.4), (60, 4.4)], #""highway":"service","clearance":3.5,"radius":2.75"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aTruckIsNotMovedOntoARoadBesideItsOwnThatDoesNotJoinIt(rate: Double) throws {
        // The error 3.9 m toward the service road for the length of it: nearer its line (0.5 m)
        // than the street's (3.9 m).
        let drive = M.drive(from: (-300, 3.9), to: (300, 3.9), speed: 0.9 * 30 / 3.6, rate: rate)
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 4.2)
        let engine = try M.engine(Self.besideService, settings: settings)
        // Outside the street's corridor (1.75 m): matched to it, not entered.
        #expect(M.events(engine, drive) == [])
        #expect(engine.roadBeingDriven == 0)
    }

    /// A motorway (88 km/h), and 9 m north of its line a link (40 km/h) that runs beside it for
    /// 600 m and then turns away north-east, not joined to it there: the Harbor Tunnel Thruway in
    /// Baltimore and its ramp.
    static let motorwayBesideLink = [
        M.road("motorway", [(-800, 0), (800, 0)], #""highway":"motorway","speed_limit_kmh":88,"radius":7"#),
        M.road(
            "link", [(-800, 9), (-200, 9), (-100, 60)],
            #""highway":"motorway_link","oneway":"yes","speed_limit_kmh":40,"radius":3.5"#),
    ]

    /// The speeding events of the fixes: the fence's id, the fix's metres east of the centre and the
    /// limit told (km/h).
    static func speeding(_ engine: EventEngine, _ fixes: [Fix]) -> [(fence: String, east: Double, limit: Double)] {
        var found: [(String, Double, Double)] = []
        for fix in fixes {
            engine.process(fix) { event in
                guard case .speeding(let s) = event.payload else { return }
                let east =
                    (fix.longitude - M.centre.lon) * Geodesy.metresPerDegree * cos(M.centre.lat * Geodesy.degree)
                found.append((engine.fences.ids[s.fence].json, east, s.limit * 3.6))
            }
        }
        return found
    }

    @Test(arguments: [10.0, 1.0])
    func aDriveThatStartsBesideASlowerRoadIsNotToldItsLimit(rate: Double) throws {
        // A car in the motorway's eastbound lane (1.75 m south of its line) at 90 % of its limit,
        // its error 6.75 m north from the first fix on: 4 m from the link's line, 5 m from the
        // motorway's. Taken for the link
        // while the two run side by side, it is not speeding at the link's 40.
        let drive = M.drive(from: (-700, 5), to: (400, 5), speed: 0.9 * 88 / 3.6, rate: rate)
        let engine = try M.engine(Self.motorwayBesideLink)
        #expect(Self.speeding(engine, drive).isEmpty)
        #expect(engine.roadBeingDriven == 0)
    }

    @Test(arguments: [10.0, 1.0])
    func aCarSpeedingOnTheSlowerRoadIsToldOnceTheRoadsPart(rate: Double) throws {
        // A car on the link at 130 % of its 40 from beside the motorway's edge, 2 m south of the
        // link's line, then where the link turns away along it.
        let speed = 1.3 * 40 / 3.6
        let beside = M.drive(from: (-700, 7), to: (-200, 7), speed: speed, rate: rate)
        let away = M.drive(
            from: (-200, 9), to: (-100, 60), speed: speed, rate: rate, startingAt: Double(beside.count + 1) / rate)
        let told = Self.speeding(try M.engine(Self.motorwayBesideLink), beside + away)
        #expect(told.count == 1, "\(told)")
        #expect(told.first?.fence == #""link""#)
        #expect(abs((told.first?.limit ?? 0) - 40) < 1e-9)
        // A speed above the motorway's limit too is told on the first fixes, whichever road is
        // taken, at the limit it certainly breaks: the motorway's.
        let fast = M.drive(from: (-700, 7), to: (-200, 7), speed: 1.1 * 88 / 3.6, rate: rate)
        let early = Self.speeding(try M.engine(Self.motorwayBesideLink), fast)
        #expect(early.count == 1, "\(early)")
        #expect((early.first?.east ?? 0) < -600, "\(early)")
        #expect(early.first?.fence == #""motorway""#, "\(early)")
        #expect(abs((early.first?.limit ?? 0) - 88) < 1e-9, "\(early)")
    }

    /// A one-way motorway (55 mph, radius 3.5 m): the Harbor Tunnel Thruway in Baltimore.
    static let motorway = [
        M.road(
            "motorway", [(-1000, 0), (1000, 0)],
            #""highway":"motorway","oneway":"yes","speed_limit_kmh":88.514,"radius":3.5"#)
    ]

    @Test(arguments: [1.0, 10.0])
    func aRoadDrivenBesideItsFootprintThenEnteredIsToldItsSpeedingOnce(rate: Double) throws {
        // 115 km/h, the fixes 5 m north of the line (matched, outside the footprint) for 4 s, then
        // on it.
        let speed = 115 / 3.6
        let beside = M.drive(from: (-800, 5), to: (-800 + 4 * speed, 5), speed: speed, rate: rate)
        let on = M.drive(
            from: (-800 + 4 * speed + speed / rate, 0), to: (0, 0), speed: speed, rate: rate,
            startingAt: Double(beside.count) / rate)
        let events = M.events(try M.engine(Self.motorway), beside + on)
        #expect(events.filter { $0.hasPrefix("speeding") } == [#"speeding "motorway""#], "\(events)")
        // At 1 Hz the third fix above the limit is the third on the road, before it is entered.
        if rate == 1 { #expect(events.first == #"speeding "motorway""#, "\(events)") }
    }
}
