import Foundation
import NMEA
import Testing

@testable import Events
@testable import Fences

/// The cases of the drives on real roads that only the history of the fixes settles, laid out in
/// metres from the OSM ways of Helsinki they were found on (`RoadMatchingJudgedTests`).
extension RoadMatchingJudgedTests {
    /// A drive along the line through `points` (metres east, north) at `speed(metres along)` m/s,
    /// `rate` fixes a second, `right` metres to the right of the line (its lane), the fixes off by
    /// `lean` (metres east, north: a receiver's error leans one way for tens of seconds) and a
    /// sine of 0.5 m across.
    static func drive(
        along points: [(Double, Double)], right: Double, lean: (Double, Double), rate: Double,
        speed: (Double) -> Double
    ) -> [Fix] {
        var fixes: [Fix] = []
        var travelled = 0.0
        var t = 0.0
        var leg = 0
        var start = 0.0
        while leg + 1 < points.count {
            let a = points[leg]
            let b = points[leg + 1]
            let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
            guard travelled <= start + length else {
                start += length
                leg += 1
                continue
            }
            let along = (travelled - start) / length
            let east = (b.0 - a.0) / length
            let north = (b.1 - a.1) / length
            let across = right + 0.5 * sin(t * 2 * .pi / 8)
            let v = speed(travelled)
            let track = (atan2(east, north) / Geodesy.degree + 360).truncatingRemainder(dividingBy: 360)
            fixes.append(
                M.fix(
                    t, a.0 + along * (b.0 - a.0) + across * north + lean.0,
                    a.1 + along * (b.1 - a.1) - across * east + lean.1, speed: v, track: track))
            travelled += v / rate
            t += 1 / rate
        }
        return fixes
    }

    /// A road with `shared_nodes` (`[vertex, node]`) through the points (metres).
    static func way(_ id: String, _ points: [(Double, Double)], nodes: [(Int, Int)], _ properties: String) -> String {
        let shared = nodes.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
        return M.road(id, points, properties + #","shared_nodes":[\#(shared)]"#)
    }

    /// Fabianinkatu (two-way, 30) northward from a node where a ramp (service, 10) leaves it, runs
    /// 3-5 m east of it for 35 m and goes on into a tunnel (10) under the street: the ways
    /// 143057426, 74307865 and 75384651, 25455827, 609208671 and 609208670, metres from that node.
    static let streetAndRamp = [
        way(
            "street-south", [(0.8, -157.4), (0.4, -6.6), (0, 0)], nodes: [(2, 1)],
            #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "street", [(-1.8, 43.3), (-2.9, 36.7), (-2.1, 12.9), (-2.0, 10.5), (0, 0)], nodes: [(0, 3), (4, 1)],
            #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "street-north", [(-5.1, 152.6), (-3.6, 76.1), (-1.8, 43.3)], nodes: [(2, 3)],
            #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "ramp", [(0, 0), (3.3, 9.7), (2.6, 35.2)], nodes: [(0, 1), (2, 2)],
            #""highway":"service","speed_limit_kmh":10,"radius":1.75"#),
        way(
            "tunnel", [(2.6, 35.2), (-1.0, 88.7), (-3.9, 95.7)], nodes: [(0, 2), (2, 4)],
            #""highway":"service","tunnel":"yes","speed_limit_kmh":10,"radius":1.75"#),
        way(
            "tunnel-north", [(-3.9, 95.7), (-5.3, 137.0)], nodes: [(0, 4)],
            #""highway":"service","tunnel":"yes","speed_limit_kmh":10,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aCarOnTheStreetIsNotTakenDownARampItsErrorLeansTo(rate: Double) throws {
        // 27 km/h (90 % of 30) northward in the lane (1.75 m east of the line), the error leaning
        // 2 m further east: by the ramp, nearer its line (1-2 m) than the street's (3.75 m).
        let line = [
            (0.8, -150.0), (0.4, -6.6), (0, 0), (-2.0, 10.5), (-2.1, 12.9), (-2.9, 36.7), (-1.8, 43.3), (-3.6, 76.1),
        ]
        let drive = Self.drive(along: line, right: 1.75, lean: (2, 0), rate: rate) { _ in 0.9 * 30 / 3.6 }
        #expect(drive.contains { M.inside($0, Self.streetAndRamp, "ramp") })
        let engine = try M.engine(Self.streetAndRamp)
        let events = M.events(engine, drive)
        #expect(!events.contains { $0.hasPrefix("speeding") }, "\(events)")
        #expect(!events.contains { $0.contains("ramp") || $0.contains("tunnel") }, "\(events)")
        // A car that takes the ramp at 13 km/h (130 % of 10) is held to the street's 30: the ramp
        // was chosen over the street at the node, and the tunnel it leads into runs under the
        // street's next ways, which hold the fixes (3-5 m off) the whole way. Below a street a
        // receiver has no fix at all.
        let ramp = [(0.4, -60.0), (0.4, -6.6), (0, 0), (3.3, 9.7), (2.6, 35.2), (-1.0, 88.7)]
        let down = Self.drive(along: ramp, right: 0, lean: (0, 0), rate: rate) { _ in 1.3 * 10 / 3.6 }
        let told = M.events(try M.engine(Self.streetAndRamp), down).filter { $0.hasPrefix("speeding") }
        #expect(told.isEmpty, "\(told)")
        // Above the street's 30 too, it is told on the street before the node, and down the ramp
        // at once, with the limit it certainly breaks: the street's, on the way the street goes
        // on as.
        let fast = Self.drive(along: ramp, right: 0, lean: (0, 0), rate: rate) { _ in 35 / 3.6 }
        let toldFast = Self.speeding(try M.engine(Self.streetAndRamp), fast)
        #expect(toldFast.map(\.fence).prefix(2) == [#""street-south""#, #""street""#], "\(toldFast)")
        #expect(toldFast.allSatisfy { $0.fence.hasPrefix(#""street"#) && abs($0.limit - 30) < 1e-9 }, "\(toldFast)")
    }
}

extension RoadMatchingJudgedTests {
    /// A one-way service tunnel (10, clearance 4 m) whose portal lies 6 m north of Puutarhakatu,
    /// one-way the same way, and that runs beside it for 50 m and then under Vuorikatu for 110 m,
    /// where the street ends, and on for 120 m: the ways 27193233, 76028719, 76028714, 123063616,
    /// 22565684, 123063615, 123063617 and 36730365, metres from the portal.
    static let portalBesideStreet = [
        way(
            "tunnel",
            [
                (0, 0), (-32.7, -2.5), (-40.5, -3.1), (-46.1, -4.9), (-50.1, -7.7), (-53.6, -11.5), (-55.8, -15.6),
                (-56.6, -25.8), (-55.7, -49.2), (-54.6, -91.4), (-59.6, -131.3), (-60.8, -204.5), (-59.6, -216.0),
                (-56.5, -227.5), (-53.5, -231.7),
            ], nodes: [],
            #""highway":"service","oneway":"yes","tunnel":"yes","speed_limit_kmh":10,"clearance":4,"radius":2.75"#),
        way(
            "puutarhakatu-east", [(8.6, -4.8), (-3.7, -5.7)], nodes: [(1, 1)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":1.75"#),
        way(
            "puutarhakatu", [(-3.7, -5.7), (-50.2, -8.2), (-56.8, -8.7)], nodes: [(0, 1), (2, 2)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "vuorikatu", [(-56.8, -8.7), (-56.7, -11.4), (-56.6, -14.5), (-56.5, -16.2)], nodes: [(0, 2), (3, 3)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "vuorikatu-2", [(-56.5, -16.2), (-54.8, -42.5), (-54.6, -46.8), (-52.5, -80.5)], nodes: [(0, 3), (3, 4)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":3.5"#),
        way(
            "vuorikatu-3", [(-52.5, -80.5), (-52.0, -98.7)], nodes: [(0, 4), (1, 5)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":1.75"#),
        way(
            "vuorikatu-4", [(-52.0, -98.7), (-51.7, -102.8), (-51.4, -106.4), (-50.9, -114.3)], nodes: [(0, 5)],
            #""highway":"residential","oneway":"yes","speed_limit_kmh":30,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aTruckEnteringATunnelBesideAStreetIsToldTooLow(rate: Double) throws {
        // 9 km/h (90 % of 10) from the portal, the error leaning 3.6 m south (toward the street)
        // and 1.7 m west: the first fix nearer the street's line (2.4 m) than the tunnel's.
        let drive = Self.drive(along: Self.tunnelLine, right: 0, lean: (-1.7, -3.6), rate: rate) { _ in 0.9 * 10 / 3.6 }
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 4.2)
        let events = M.events(try M.engine(Self.portalBesideStreet, settings: settings), drive)
        #expect(events.contains(#"enter "tunnel": clearance"#), "\(events)")
        // A truck on the street beside the portal is not taken into the tunnel.
        let street = [(8.6, -4.8), (-3.7, -5.7), (-50.2, -8.2), (-56.8, -8.7), (-56.5, -16.2), (-54.8, -42.5)]
        let onStreet = Self.drive(along: street, right: 0, lean: (0, 1.5), rate: rate) { _ in 0.9 * 30 / 3.6 }
        let streetEvents = M.events(try M.engine(Self.portalBesideStreet, settings: settings), onStreet)
        #expect(!streetEvents.contains { $0.contains("tunnel") }, "\(streetEvents)")
    }

    static let tunnelLine = [
        (0.0, 0.0), (-32.7, -2.5), (-40.5, -3.1), (-46.1, -4.9), (-50.1, -7.7), (-53.6, -11.5), (-55.8, -15.6),
        (-56.6, -25.8), (-55.7, -49.2), (-54.6, -91.4), (-59.6, -131.3), (-60.4, -180.0),
    ]

    /// A 12 m service road (20) that leads into a tunnel (5), and, 4 m to its side, the portal of
    /// the tunnel's other tube (5) running beside the first: the ways 317360904, 29050024,
    /// 34573416 and 29050020, metres from the node where the service road meets the tunnel.
    static let serviceRoadIntoTunnel = [
        way(
            "access", [(9.1, 8.4), (0, 0)], nodes: [(0, 1), (1, 2)],
            #""highway":"service","speed_limit_kmh":20,"radius":3.5"#),
        way(
            "tunnel", [(0, 0), (-8.7, -10.9), (-108.1, -80.0)], nodes: [(0, 2)],
            #""highway":"service","tunnel":"yes","speed_limit_kmh":5,"radius":2.75"#),
        way(
            "other-tube", [(-41.9, -37.4), (-36.9, -28.4), (28.2, 17.0)], nodes: [],
            #""highway":"service","tunnel":"yes","speed_limit_kmh":5,"radius":2.75"#),
        way(
            "service", [(20.3, 18.4), (15.8, 13.4), (13.5, 11.6), (9.1, 8.4)], nodes: [(3, 1)],
            #""highway":"service","speed_limit_kmh":30,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aCarStartingBesideAPortalIsNotSpeedingWhileItBrakesForTheTunnel(rate: Double) throws {
        // 18 km/h (90 % of 20) braking at 1.5 m/s² to 4.5 km/h (90 % of 5) where the tunnel
        // begins, the error leaning 4.2 m east and 2.3 m south: the first fix on the other tube's
        // line, 19 m from its portal.
        let line = [(9.1, 8.4), (0.0, 0.0), (-8.7, -10.9), (-60.0, -46.6)]
        let drive = Self.drive(along: line, right: 1.75, lean: (4.2, -2.3), rate: rate) { s in
            min(0.9 * 20 / 3.6, (pow(0.9 * 5 / 3.6, 2) + 2 * 1.5 * max(12.4 - s, 0)).squareRoot())
        }
        let events = M.events(try M.engine(Self.serviceRoadIntoTunnel), drive)
        #expect(!events.contains { $0.hasPrefix("speeding") }, "\(events)")
        // At 130 % the car is held to the tunnel's limit.
        let fast = Self.drive(along: line, right: 1.75, lean: (4.2, -2.3), rate: rate) { s in
            min(1.3 * 20 / 3.6, (pow(1.3 * 5 / 3.6, 2) + 2 * 1.5 * max(12.4 - s, 0)).squareRoot())
        }
        #expect(M.events(try M.engine(Self.serviceRoadIntoTunnel), fast).contains { $0.hasPrefix("speeding \"") })
    }
}
