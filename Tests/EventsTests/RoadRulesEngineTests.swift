import NMEA
import Presentation
import Testing

@testable import Events
@testable import Fences

/// Which fences `--approach` warns of (`--approach-kinds`), and the conditional limits as the engine
/// applies them, on the fixes of `EventEngineTests` (the start is Tuesday 2026-02-03 10:15:00 UTC).
@Suite struct RoadRulesEngineTests {
    /// Towards a circle of radius 10 at 20 m/s from 800 m west: with a 500 m look-ahead the path
    /// reaches it at the third fix (505 m away, 495 m to its edge).
    static let towards = [(0.0, -800.0), (1, -600), (2, -505), (3, -400)].map {
        EventEngineTests.fix($0.0, $0.1, speed: 20)
    }

    /// The approaches raised, each with the restrictions it carries.
    static func approaches(_ properties: String, _ settings: EventSettings) throws -> [BrokenRestrictions] {
        let engine = EventEngine(
            fences: try FenceSet.parse(EventEngineTests.circle(radius: 10, properties: properties)), settings: settings)
        var approaches: [BrokenRestrictions] = []
        for fix in towards {
            engine.process(fix) {
                if case .approach(let approach) = $0.payload { approaches.append(approach.restrictions) }
            }
        }
        return approaches
    }

    static func settings(approach: Double = 500, kinds: ApproachKinds? = nil, height: Double? = nil) -> EventSettings {
        var settings = EventSettings()
        settings.approach = approach
        if let kinds { settings.approachKinds = kinds }
        settings.vehicle.height = height
        return settings
    }

    /// `--approach 500` on a road with a speed limit says nothing unless asked; a bridge lower than
    /// the truck and a plain fence are warned of; a bridge the truck passes under is not.
    @Test func theApproachIsForHazardsUnlessAsked() throws {
        let road = #""speed_limit_kmh":50"#
        #expect(try Self.approaches(road, Self.settings()).isEmpty, "a speed-limit road is no hazard")
        #expect(try Self.approaches(road, Self.settings(kinds: [.speedLimits])) == [[]])
        #expect(try Self.approaches(road, Self.settings(kinds: .all)) == [[]])
        #expect(try Self.approaches("", Self.settings()) == [[]], "a plain fence")
        #expect(try Self.approaches("", Self.settings(kinds: [.speedLimits])).isEmpty)
        let bridge = #""clearance":3.0,"speed_limit_kmh":50"#
        #expect(try Self.approaches(bridge, Self.settings(height: 3.5)) == [[.clearance]], "too low")
        #expect(try Self.approaches(bridge, Self.settings(height: 2.5)).isEmpty, "passes under")
        #expect(try Self.approaches(bridge, Self.settings()).isEmpty, "no height given")
        #expect(try Self.approaches(bridge, Self.settings(kinds: [.passable], height: 2.5)) == [[]])
        // A fence's own `approach` holds whatever its kind.
        #expect(try Self.approaches(road + #","approach":500"#, Self.settings()) == [[]])
        #expect(ApproachKinds(parsing: "restrictions,speed-limits") == [.restrictions, .speedLimits])
        #expect(ApproachKinds(parsing: "hazards") == nil && ApproachKinds(parsing: "") == nil)
    }

    /// A school zone (`30 @ (Tu 10:00-11:00)` over a plain 50) driven through at 40 km/h from 10:15
    /// UTC: speeding at the third fix, against 30; the same zone at 11:00-12:00 says nothing,
    /// unless the user's zone is Berlin's (10:15 UTC is 11:15 there) and the fence has no zone.
    @Test func speedingReportsTheLimitInForce() throws {
        func speeding(_ conditional: String, zone: ZoneOffsets = .utc) throws -> [Double] {
            var settings = EventSettings()
            settings.localZone = zone
            let engine = EventEngine(
                fences: try FenceSet.parse(
                    EventEngineTests.circle(
                        radius: 500, properties: #""speed_limit_kmh":50,"maxspeed:conditional":""# + conditional + "\"")
                ),
                settings: settings)
            var limits: [Double] = []
            for second in 0..<6 {
                engine.process(EventEngineTests.fix(Double(second), Double(second) * 11, speed: 40 / 3.6)) {
                    if case .speeding(let speeding) = $0.payload { limits.append((speeding.limit * 3.6).rounded()) }
                }
            }
            return limits
        }
        #expect(try speeding("30 @ (Tu 10:00-11:00)") == [30])
        #expect(try speeding("30 @ (Tu 11:00-12:00)") == [])
        #expect(try speeding("30 @ (Tu 11:00-12:00)", zone: try ZoneOffsets(named: "Europe/Berlin")) == [30])
    }

    /// A bridge closed above 7.5 t from 10:00 to 11:00 only: a 12 t lorry entering at 10:15 is
    /// flagged too heavy, and warned of ahead by default; at 11:00-12:00 the bridge is passable.
    @Test func aConditionalWeightFlagsOnlyInItsHours() throws {
        func flags(_ hours: String) throws -> (approach: [BrokenRestrictions], enter: [BrokenRestrictions]) {
            var settings = Self.settings()
            settings.vehicle.weight = 12_000
            let engine = EventEngine(
                fences: try FenceSet.parse(
                    EventEngineTests.circle(
                        radius: 10, properties: #""maxweight:conditional":"7.5 @ ("# + hours + ")\"")),
                settings: settings)
            var approach: [BrokenRestrictions] = []
            var enter: [BrokenRestrictions] = []
            for fix in Self.towards + [EventEngineTests.fix(30, 0, speed: 20)] {
                engine.process(fix) {
                    if case .approach(let event) = $0.payload { approach.append(event.restrictions) }
                    if case .enter(let event) = $0.payload { enter.append(event.restrictions) }
                }
            }
            return (approach, enter)
        }
        let closed = try flags("Tu 10:00-11:00")
        #expect(closed.approach == [[.weight]] && closed.enter == [[.weight]])
        let open = try flags("Tu 11:00-12:00")
        #expect(open.approach.isEmpty && open.enter == [[]])
    }
}
