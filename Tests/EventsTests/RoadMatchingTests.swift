import Foundation
import NMEA
import Testing

@testable import Events
@testable import Fences

/// Matching fixes to the road being driven (docs/events.md, "The road being driven"): roads laid out
/// in metres east and north of a centre, driven in their lanes with a GPS error that drifts as a
/// receiver's does, at 10 and 1 fixes a second.
@Suite struct RoadMatchingTests {
    static let centre = (lat: 48.137, lon: 11.575)
    static let start = UTCTime(millisecondsSinceEpoch: 1_770_113_700_000)

    /// (lon, lat) of the point `east`, `north` metres from the centre.
    static func position(_ east: Double, _ north: Double) -> (lon: Double, lat: Double) {
        (
            centre.lon + east / (Geodesy.metresPerDegree * cos(centre.lat * Geodesy.degree)),
            centre.lat + north / Geodesy.metresPerDegree
        )
    }

    /// A road corridor through the points (metres east, north), with its properties besides the
    /// geometry (JSON members).
    static func road(_ id: String, _ points: [(Double, Double)], _ properties: String) -> String {
        let coordinates = points.map { point in
            let p = position(point.0, point.1)
            return "[\(p.lon),\(p.lat)]"
        }
        return #"{"type":"Feature","id":"\#(id)","geometry":{"type":"LineString","coordinates":["#
            + coordinates.joined(separator: ",") + #"]},"properties":{\#(properties)}}"#
    }

    /// A fix at `east`, `north` metres, `second` seconds after the start.
    static func fix(
        _ second: Double, _ east: Double, _ north: Double, speed: Double, track: Double, accuracy: Double = 4.5
    ) -> Fix {
        let p = position(east, north)
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: start.millisecondsSinceEpoch + Int64((second * 1000).rounded())),
            timeOfDay: TimeOfDay(milliseconds: 0), latitude: p.lat, longitude: p.lon, speed: speed, track: track,
            mode: .threeD, accuracy: accuracy)
    }

    /// A drive along a straight line from `from` to `to` (metres) at `speed` m/s, `rate` fixes a
    /// second, with an error across the way that drifts by up to `drift` metres (a sine of 8 s)
    /// and a course off by up to 4 degrees.
    static func drive(
        from: (Double, Double), to: (Double, Double), speed: Double, rate: Double, drift: Double = 0,
        startingAt first: Double = 0
    ) -> [Fix] {
        let dx = to.0 - from.0
        let dy = to.1 - from.1
        let length = (dx * dx + dy * dy).squareRoot()
        let track = (atan2(dx, dy) / Geodesy.degree + 360).truncatingRemainder(dividingBy: 360)
        let count = Int(length / speed * rate)
        return (0...count).map { k in
            let t = Double(k) / rate
            let along = t * speed / length
            let across = drift * sin(t * 2 * .pi / 8)
            return fix(
                first + t, from.0 + along * dx + across * dy / length, from.1 + along * dy - across * dx / length,
                speed: speed, track: track + 4 * sin(t * 2 * .pi / 5))
        }
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static func engine(_ features: [String], settings: EventSettings = EventSettings()) throws -> EventEngine {
        EventEngine(fences: try FenceSet.parse(Self.collection(features)), settings: settings)
    }

    /// The events of the fixes as "type fence-id", and flags after a colon (no `dwell`: the drives
    /// take minutes).
    static func events(_ engine: EventEngine, _ fixes: [Fix]) -> [String] {
        var out: [String] = []
        for fix in fixes {
            engine.process(fix) { event in
                guard ![.registered, .stationary, .moving, .dwell].contains(event.kind) else { return }
                var line = event.kind.rawValue + " " + (event.fence.map { engine.fences.ids[$0].json } ?? "-")
                if !event.restrictions.isEmpty { line += ": " + event.restrictions.map { "\($0)" }.joined() }
                out.append(line)
            }
        }
        return out
    }

    /// A 50 road east-west and a 30 road north-south joined at the junction in the middle.
    static let crossing = [
        road("main", [(-600, 0), (0, 0), (600, 0)], #""highway":"primary","speed_limit_kmh":50,"radius":5.25"#),
        road("side", [(0, -400), (0, 0), (0, 400)], #""highway":"residential","speed_limit_kmh":30,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aCarAtNinetyPercentOfItsLimitIsNotSpeedingAgainstTheRoadItCrosses(rate: Double) throws {
        let slow = Self.drive(from: (-300, -1.75), to: (300, -1.75), speed: 0.9 * 50 / 3.6, rate: rate, drift: 2)
        // At 10 Hz the drive is inside the 30 road's corridor for more fixes than confirm `speeding`.
        let inSide = slow.filter { Self.inside($0, Self.crossing, "side") }.count
        #expect(rate == 1 || inSide >= 4, "\(inSide)")
        #expect(Self.events(try Self.engine(Self.crossing), slow) == [#"enter "main""#])
        let fast = Self.drive(from: (-300, -1.75), to: (300, -1.75), speed: 1.3 * 50 / 3.6, rate: rate, drift: 2)
        let engine = try Self.engine(Self.crossing)
        var speeding: [GeofenceEvent.Speeding] = []
        for fix in fast {
            engine.process(fix) { event in
                guard case .speeding(let s) = event.payload else { return }
                speeding.append(s)
            }
        }
        #expect(speeding.count == 1)
        #expect(speeding.first?.fence == 0)
        #expect(abs((speeding.first?.limit ?? 0) - 50 / 3.6) < 1e-9)
    }

    /// A boulevard with a tunnel under it for 300 m, 2.5 m to its side (its corridor reaching into the
    /// boulevard's eastbound lane), reached by a ramp that joins it at its portal.
    static let tunnel = [
        road("street", [(-500, 0), (500, 0)], #""highway":"secondary","speed_limit_kmh":50,"radius":5.25"#),
        road(
            "tunnel", [(-150, -2.5), (150, -2.5)],
            #""highway":"primary","tunnel":"yes","layer":-1,"clearance":3.0,"radius":3.5"#),
        road(
            "ramp", [(-500, -40), (-250, -40), (-150, -2.5)], #""highway":"primary","speed_limit_kmh":50,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aTruckOnTheStreetOverATunnelIsNotTooLowAndOneInItIs(rate: Double) throws {
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 3.5)
        settings.approach = 300
        let street = Self.drive(from: (-400, 1.75), to: (400, 1.75), speed: 12, rate: rate, drift: 1.5)
        #expect(street.contains { Self.inside($0, Self.tunnel, "tunnel") })
        let onStreet = Self.events(try Self.engine(Self.tunnel, settings: settings), street)
        #expect(!onStreet.contains { $0.contains("clearance") }, "\(onStreet)")
        #expect(onStreet.first == #"enter "street""#)

        let ramp = Self.drive(from: (-480, -40), to: (-250, -40), speed: 12, rate: rate)
        let down = Self.drive(
            from: (-250, -40), to: (-150, -2.5), speed: 12, rate: rate, startingAt: ramp.count.asSeconds(rate))
        let through = Self.drive(
            from: (-150, -2.5), to: (140, -2.5), speed: 12, rate: rate,
            startingAt: (ramp.count + down.count).asSeconds(rate))
        let inTunnel = Self.events(try Self.engine(Self.tunnel, settings: settings), ramp + down + through)
        #expect(inTunnel.contains(#"approach "tunnel": clearance"#), "\(inTunnel)")
        #expect(inTunnel.contains(#"enter "tunnel": clearance"#), "\(inTunnel)")
    }

    /// A bridge east-west (layer 1) over a street north-south whose clearance under the bridge is
    /// 3 m, both drawn with a vertex at the centre but through different OSM nodes (their
    /// `shared_nodes` have none in common), and a side road with a 3 m underpass leaving the
    /// bridge's road at its east end (node 3, listed by both).
    static let overpass = [
        road(
            "bridge", [(-600, 0), (0, 0), (300, 0)],
            #""highway":"primary","bridge":"yes","layer":1,"radius":5.25,"shared_nodes":[[2,3]]"#),
        road(
            "under", [(0, -400), (0, 0), (0, 400)],
            #""highway":"primary","clearance":3.0,"radius":5.25,"shared_nodes":[]"#),
        road(
            "side", [(300, 0), (300, 300)],
            #""highway":"residential","clearance":3.0,"radius":3.5,"shared_nodes":[[0,3]]"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aTruckOnABridgeIsWarnedOfTheRoadItJoinsNotOfTheRoadBelowIt(rate: Double) throws {
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 3.5)
        settings.approach = 300
        let drive = Self.drive(from: (-500, 1.75), to: (250, 1.75), speed: 12, rate: rate, drift: 1)
        #expect(drive.contains { Self.inside($0, Self.overpass, "under") })
        let events = Self.events(try Self.engine(Self.overpass, settings: settings), drive)
        #expect(!events.contains { $0.contains("under") }, "\(events)")
        #expect(events.contains(#"approach "side": clearance"#), "\(events)")
    }

    /// The tunnel of `tunnel` drawn as a crossing at a shallow angle often is: a vertex of the
    /// tunnel on a vertex of the street, the two ways through different OSM nodes.
    static let tunnelUnderAVertex = [
        road(
            "street", [(-500, 0), (0, 0), (500, 0)],
            #""highway":"secondary","speed_limit_kmh":50,"radius":5.25,"shared_nodes":[]"#),
        road(
            "tunnel", [(-300, -5), (0, 0), (300, -5)],
            #""highway":"primary","tunnel":"yes","layer":-1,"clearance":3.0,"radius":3.5,"shared_nodes":[]"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aTruckOnTheStreetStaysOnItOverATunnelDrawnThroughItsVertex(rate: Double) throws {
        var settings = EventSettings()
        settings.vehicle = VehicleProfile(height: 3.5)
        settings.approach = 300
        // In the street's outer lane, 2.5 m south of its line: on the tunnel's line 150 m either
        // side of the shared position, nearer it than to the street's.
        let drive = Self.drive(from: (-400, -2.5), to: (400, -2.5), speed: 12, rate: rate, drift: 0.5)
        #expect(drive.contains { Self.inside($0, Self.tunnelUnderAVertex, "tunnel") })
        let engine = try Self.engine(Self.tunnelUnderAVertex, settings: settings)
        let events = Self.events(engine, drive)
        #expect(events == [#"enter "street""#], "\(events)")
        #expect(engine.roadBeingDriven == 0)
    }

    /// A service road beside the main road, its edge 4.5 m from the main road's line.
    static let service = [
        road("main", [(-600, 0), (600, 0)], #""highway":"primary","speed_limit_kmh":50,"radius":5.25"#),
        road("service", [(-400, 8), (400, 8)], #""highway":"service","speed_limit_kmh":20,"radius":3.5"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aCarInTheOuterLaneStaysOnItsRoadBesideAServiceRoad(rate: Double) throws {
        // In the lane 1.75 m north of the line, the error drifting 3 m: into the service road's
        // corridor for a second and more at a time.
        let drive = Self.drive(from: (-500, 1.75), to: (500, 1.75), speed: 0.9 * 50 / 3.6, rate: rate, drift: 3)
        #expect(drive.contains { fix in Self.inside(fix, Self.service, "service") })
        let engine = try Self.engine(Self.service)
        #expect(Self.events(engine, drive) == [#"enter "main""#])
        #expect(engine.roadBeingDriven == 0)
    }

    /// Whether the fix lies inside the corridor `id` of the fences.
    static func inside(_ fix: Fix, _ features: [String], _ id: String) -> Bool {
        guard let set = try? FenceSet.parse(Self.collection(features)),
            let index = set.ids.firstIndex(of: .string(id))
        else { return false }
        return set.contains(fence: index, lat: fix.latitude, lon: fix.longitude)
    }

    @Test func aCarStoppedAtAJunctionKeepsItsRoad() throws {
        let engine = try Self.engine(Self.crossing)
        let approach = Self.drive(from: (0, -200), to: (0, -3), speed: 25 / 3.6, rate: 10)
        _ = Self.events(engine, approach)
        #expect(engine.roadBeingDriven == 1)
        // Creeping at the stop line, the course swinging to the east: no course to match by.
        let first = approach.count.asSeconds(10)
        for k in 0..<100 {
            let t = first + Double(k) / 10
            let fix = Self.fix(t, 0.4 * sin(Double(k)), -0.3 + 0.3 * cos(Double(k)), speed: 1.5, track: 90)
            engine.process(fix) { _ in }
            #expect(engine.roadBeingDriven == 1, "at \(t) s")
        }
    }

    /// A dual carriageway: two one-way roads 8 m apart, their corridors overlapping.
    static let carriageways = [
        road(
            "northbound", [(4, -500), (4, 500)],
            #""highway":"primary","oneway":"yes","speed_limit_kmh":50,"radius":5.25"#),
        road(
            "southbound", [(-4, 500), (-4, -500)],
            #""highway":"primary","oneway":"yes","speed_limit_kmh":30,"radius":5.25"#),
    ]

    @Test(arguments: [10.0, 1.0])
    func aOneWayRoadIsDrivenOnlyItsWay(rate: Double) throws {
        // Northbound by the central reservation, nearer the southbound road's line than its own.
        let drive = Self.drive(from: (-0.5, -400), to: (-0.5, 400), speed: 0.9 * 50 / 3.6, rate: rate, drift: 1)
        #expect(drive.allSatisfy { Self.inside($0, Self.carriageways, "southbound") })
        let engine = try Self.engine(Self.carriageways)
        #expect(Self.events(engine, drive) == [#"enter "northbound""#])
        // The same against the tagged way: neither road is being driven.
        let wrongWay = Self.drive(from: (4, 400), to: (4, -400), speed: 10, rate: rate)
        let other = try Self.engine([Self.carriageways[0]])
        #expect(Self.events(other, wrongWay).isEmpty)
        #expect(other.roadBeingDriven == nil)
    }

    /// A two-lane 50 road (radius 3.5 m) and a car at 60 km/h in its outer lane (1.75 m off the line)
    /// whose fixes are 6 m further out, as its receiver says (accuracy 6 m): outside the corridor,
    /// within its footprint widened for matching.
    @Test func aCarInTheOuterLaneWithASixMetreErrorIsHeldToItsRoadsLimit() throws {
        let road = [
            Self.road("street", [(-600, 0), (600, 0)], #""highway":"residential","speed_limit_kmh":50,"radius":3.5"#)
        ]
        let drive = Self.drive(from: (-300, 7.75), to: (300, 7.75), speed: 60 / 3.6, rate: 1).map { fix in
            var fix = fix
            fix.accuracy = 6
            return fix
        }
        #expect(!drive.contains { Self.inside($0, road, "street") })
        let engine = try Self.engine(road)
        #expect(Self.events(engine, drive) == [#"speeding "street""#])
    }

    @Test func corridorsWithoutRoadTagsAreEnteredAsBefore() throws {
        let plain = [
            Self.road("a", [(-600, 0), (600, 0)], #""speed_limit_kmh":50,"radius":5"#),
            Self.road("b", [(0, -400), (0, 400)], #""speed_limit_kmh":30,"radius":5"#),
        ]
        let drive = Self.drive(from: (-300, 0), to: (300, 0), speed: 0.9 * 50 / 3.6, rate: 10)
        let events = Self.events(try Self.engine(plain), drive)
        #expect(events.contains(#"enter "b""#) && events.contains(#"speeding "b""#), "\(events)")
    }
}

extension Int {
    /// The time of the fix after `self` fixes at `rate` a second.
    fileprivate func asSeconds(_ rate: Double) -> Double { Double(self) / rate }
}
