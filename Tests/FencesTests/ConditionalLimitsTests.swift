import Presentation
import Testing

@testable import Fences

/// `maxspeed:conditional` and its one-way forms, `maxspeed:hgv:conditional` and `maxweight:conditional` (docs/fences.md,
/// "Conditional limits"): the parts at a time are read, the others are not (and refuse the file),
/// and the limit in force is the one whose time holds in the fence's zone, else the user's.
/// 2026-02-03 is a Tuesday; Berlin is UTC+1 and New York UTC-5 in February.
@Suite struct ConditionalLimitsTests {
    static let tuesday = Int64(1_770_076_800_000)  // 2026-02-03T00:00:00Z
    static let berlin = try! ZoneOffsets(named: "Europe/Berlin")
    static let newYork = try! ZoneOffsets(named: "America/New_York")

    static func at(_ hours: Double, days: Int64 = 0) -> Int64 {
        tuesday + days * 86_400_000 + Int64(hours * 3_600_000)
    }

    static func rules(_ properties: String) throws -> FenceRules {
        let json =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]},"properties":{"radius":5,"#
            + properties + "}}"
        return try #require(try FenceSet.parse(json, file: "f.geojson").settings(0).rules)
    }

    @Test func thePartsAtATimeAreReadAndTheOthersAreNot() {
        let school = ConditionalLimit.parts(
            "30 @ (Mo-Fr 07:00-09:00,14:00-16:00; SH off); 20 mph @ Sa 10:00-12:00", quantity: .speed)
        #expect(school.read == ["30 @ (Mo-Fr 07:00-09:00,14:00-16:00; SH off)", "20 mph @ Sa 10:00-12:00"])
        #expect(school.unreadable.isEmpty)
        #expect(school.limits.map(\.value) == [30 / 3.6, 20 * 1.609344 / 3.6])
        let mixed = ConditionalLimit.parts(
            "60 @ wet; 30 @ (Mo-Fr 07:00-19:00 AND weight>7.5); none @ delivery; 40 @ 22:00-06:00; 30 @ (PH)",
            quantity: .speed)
        #expect(mixed.read == ["40 @ 22:00-06:00"])
        #expect(
            mixed.unreadable.map(\.text) == [
                "60 @ wet", "30 @ (Mo-Fr 07:00-19:00 AND weight>7.5)", "none @ delivery", "30 @ (PH)",
            ])
        #expect(mixed.unreadable[2].cause == .notAValue(.speed))
        #expect(mixed.unreadable[2].cause.text == "the value is not a speed like 30, 30 km/h, 20 mph or 10 knots")
        #expect(mixed.unreadable[0].cause == .notATime(nil))
        #expect(mixed.unreadable[1].cause == .notATime(nil), "a time AND a measure is no time")
        let weight = ConditionalLimit.parts("7.5 t @ (Mo-Fr 06:00-22:00); 3.5 @ (length>10)", quantity: .weight)
        #expect(weight.limits.map(\.value) == [7500])
        #expect(weight.unreadable.map(\.text) == ["3.5 @ (length>10)"])
    }

    /// A file is refused for a part it cannot read, naming the key and the part: a condition
    /// gpsfence does not know is never applied, nor silently dropped from a file given by hand.
    @Test func aFileWithAConditionThatIsNotATimeIsRefused() {
        #expect {
            try Self.rules(#""maxspeed:conditional":"30 @ (Mo-Fr 07:00-19:00); 60 @ wet""#)
        } throws: { error in
            "\(error)".contains("maxspeed:conditional '60 @ wet': the condition is not a time")
        }
    }

    /// A school zone, 30 on school days 07:00-19:00 in Berlin and 50 otherwise: 30 at 06:30 UTC
    /// (07:30 in Berlin), 50 at 05:30 UTC (06:30 in Berlin) and at 18:30 UTC (19:30), and 50 on
    /// Saturday. Without the fence's `timezone`, the user's zone: in New York 06:30 UTC is 01:30,
    /// outside; 12:30 UTC is 07:30 there, inside.
    @Test func theLimitInForceIsTheOneWhoseTimeHolds() throws {
        let zoned = try Self.rules(
            #""speed_limit_kmh":50,"timezone":"Europe/Berlin","maxspeed:conditional":"30 @ (Mo-Fr 07:00-19:00)""#)
        func limit(_ rules: FenceRules, _ time: Int64, _ zone: ZoneOffsets = .utc) -> Double? {
            rules.inForce(atMilliseconds: time, localZone: zone).speedLimit.map { ($0 * 3.6 * 1000).rounded() / 1000 }
        }
        #expect(limit(zoned, Self.at(6.5)) == 30)
        #expect(limit(zoned, Self.at(5.5)) == 50)
        #expect(limit(zoned, Self.at(18.5)) == 50)
        #expect(limit(zoned, Self.at(8, days: 4)) == 50, "Saturday")
        #expect(limit(zoned, Self.at(6.5), Self.newYork) == 30, "the fence's own zone wins")
        let unzoned = try Self.rules(#""speed_limit_kmh":50,"maxspeed:conditional":"30 @ (Mo-Fr 07:00-19:00)""#)
        #expect(limit(unzoned, Self.at(6.5), Self.newYork) == 50)
        #expect(limit(unzoned, Self.at(12.5), Self.newYork) == 30)
        #expect(limit(unzoned, Self.at(6.5), Self.berlin) == 30)
        // A raised limit at night (60 over a plain 50), and the strictest of two that hold.
        let night = try Self.rules(
            #""speed_limit_kmh":50,"maxspeed:conditional":"60 @ 22:00-06:00; 40 @ (Tu 05:00-07:00)""#)
        #expect(limit(night, Self.at(23)) == 60)
        #expect(limit(night, Self.at(5.5)) == 40)
        #expect(limit(night, Self.at(12)) == 50)
    }

    /// School times as OpenStreetMap writes them, with the holidays gpsfence cannot know: the file
    /// is read, not refused, and the limit holds at the school times of every week (holidays read
    /// as ordinary days, the stricter limit); a weight limit `Su,PH` holds on Sundays. A condition
    /// for holidays only would never hold, and is refused as no time.
    @Test func holidaysInAConditionAreReadAsOrdinaryDays() throws {
        for condition in [
            "Mo-Fr 07:00-19:00; PH off", "Mo-Fr 07:00-19:00; PH off; SH off", "Mo-Fr 07:00-19:00; PH,SH off",
            "SH off; Mo-Fr 07:00-19:00",
        ] {
            let rules = try Self.rules(
                #""speed_limit_kmh":50,"timezone":"Europe/Berlin","maxspeed:conditional":"30 @ (\#(condition))""#)
            func limit(_ time: Int64) -> Double? {
                rules.inForce(atMilliseconds: time, localZone: .utc).speedLimit.map { ($0 * 3.6).rounded() }
            }
            // 07:30, 18:30 and 19:30 in Berlin on Tuesday, then 08:00 on Saturday.
            #expect(limit(Self.at(6.5)) == 30, "\(condition)")
            #expect(limit(Self.at(17.5)) == 30, "\(condition)")
            #expect(limit(Self.at(18.5)) == 50, "\(condition)")
            #expect(limit(Self.at(7, days: 4)) == 50, "\(condition)")
        }
        let sunday = try Self.rules(#""maxweight":"40 t","maxweight:conditional":"7.5 @ (Su,PH 00:00-22:00)""#)
        #expect(sunday.inForce(atMilliseconds: Self.at(12, days: 5), localZone: .utc).maxWeight == 7500)
        #expect(sunday.inForce(atMilliseconds: Self.at(12), localZone: .utc).maxWeight == 40_000)
        // Without the parentheses the wiki asks for, the holiday rules stay with the time before them.
        let bare = ConditionalLimit.parts("30 @ Mo-Fr 07:00-19:00; PH off; SH off", quantity: .speed)
        #expect(bare.read == ["30 @ (Mo-Fr 07:00-19:00; PH off; SH off)"])
        #expect(bare.unreadable.isEmpty)
        let outside = ConditionalLimit.parts("30 @ (Mo-Fr 07:00-19:00); PH,SH off; 60 @ 22:00-06:00", quantity: .speed)
        #expect(outside.read == ["30 @ (Mo-Fr 07:00-19:00; PH,SH off)", "60 @ 22:00-06:00"])
        let file = try Self.rules(#""speed_limit_kmh":50,"maxspeed:conditional":"30 @ Mo-Fr 07:00-19:00; SH off""#)
        #expect(file.inForce(atMilliseconds: Self.at(8), localZone: .utc).speedLimit == 30 / 3.6)
        let holidaysOnly = ConditionalLimit.parts("30 @ (SH 07:00-19:00); 40 @ (PH off)", quantity: .speed)
        #expect(holidaysOnly.limits.isEmpty)
        #expect(holidaysOnly.unreadable.map(\.text) == ["30 @ (SH 07:00-19:00)", "40 @ (PH off)"])
    }

    /// A bridge closed above 7.5 t at night only, and a heavy goods vehicle's limit at school
    /// times: each applies to its own quantity, as `maxweight` and `maxspeed:hgv` would.
    @Test func weightAndHGVSpeedHaveTheirOwnConditions() throws {
        let rules = try Self.rules(
            #""maxweight":"40 t","maxweight:conditional":"7.5 @ (22:00-06:00)","speed_limit_kmh":80,"#
                + #""maxspeed:hgv:conditional":"40 @ (Mo-Fr 07:00-08:00)""#)
        let night = rules.inForce(atMilliseconds: Self.at(23), localZone: .utc)
        #expect(night.maxWeight == 7500)
        #expect(rules.inForce(atMilliseconds: Self.at(12), localZone: .utc).maxWeight == 40_000)
        let lorry = VehicleProfile(weight: 12_000, hgv: true)
        #expect(BrokenRestrictions(night, vehicle: lorry) == [.weight])
        #expect(BrokenRestrictions(rules.inForce(atMilliseconds: Self.at(12), localZone: .utc), vehicle: lorry).isEmpty)
        let school = rules.inForce(atMilliseconds: Self.at(7.5), localZone: .utc)
        #expect(school.speedLimit(for: lorry, along: nil).map { ($0 * 3.6).rounded() } == 40)
        #expect(school.speedLimit(for: VehicleProfile(), along: nil).map { ($0 * 3.6).rounded() } == 80)
        #expect(rules.limitsSpeed)
    }

    /// A school street whose 30 holds eastbound only (`maxspeed:forward:conditional`), on a road of
    /// 50 both ways: at school time the forward way is 30 and the backward way keeps its 50; a
    /// both-ways 20 at night holds both ways, and the stricter of the two where both hold.
    @Test func aOneWayConditionalLimitHoldsThatWayOnly() throws {
        let rules = try Self.rules(
            #""speed_limit_kmh":50,"maxspeed:forward:conditional":"30 @ (Mo-Fr 07:00-19:00)","#
                + #""maxspeed:backward:conditional":"40 @ (Mo-Fr 18:00-19:00)","#
                + #""maxspeed:conditional":"20 @ (18:30-19:30)""#)
        let car = VehicleProfile()
        func kmh(_ time: Int64, _ travel: TravelDirection?) -> Double? {
            rules.inForce(atMilliseconds: time, localZone: .utc).speedLimit(for: car, along: travel).map {
                ($0 * 3.6).rounded()
            }
        }
        #expect(kmh(Self.at(8), .forward) == 30)
        #expect(kmh(Self.at(8), .backward) == 50)
        #expect(kmh(Self.at(8), nil) == 30, "the way not known: the strictest")
        #expect(kmh(Self.at(12, days: 4), .forward) == 50, "a Saturday")
        #expect(kmh(Self.at(18.25), .backward) == 40)
        #expect(kmh(Self.at(18.75), .forward) == 20)
        #expect(kmh(Self.at(18.75), .backward) == 20)
        #expect(kmh(Self.at(19.25), .forward) == 20, "the both-ways one, where the forward one no longer holds")
        #expect(kmh(Self.at(22), .forward) == 50)
        #expect(FenceProperties.conditionalKeys["maxspeed:forward:conditional"] == .forwardSpeed)
        #expect(FenceProperties.conditionalKeys["maxspeed:backward:conditional"] == .backwardSpeed)
    }

    /// `maxspeed:hgv:forward` and `maxspeed:hgv:backward` hold for a heavy goods vehicle driving
    /// that way, in place of `maxspeed:hgv`; never for a car; `maxspeed:hgv:conditional` in force
    /// takes the place of all three.
    @Test func aLorrysOneWayLimitHoldsThatWay() throws {
        let rules = try Self.rules(
            #""speed_limit_kmh":80,"maxspeed:hgv":60,"maxspeed:hgv:forward":40,"#
                + #""maxspeed:hgv:conditional":"30 @ (Mo-Fr 07:00-08:00)""#)
        let lorry = VehicleProfile(hgv: true)
        func kmh(_ vehicle: VehicleProfile, _ travel: TravelDirection?, at time: Int64 = Self.at(12)) -> Double? {
            rules.inForce(atMilliseconds: time, localZone: .utc).speedLimit(for: vehicle, along: travel).map {
                ($0 * 3.6).rounded()
            }
        }
        #expect(kmh(lorry, .forward) == 40)
        #expect(kmh(lorry, .backward) == 60)
        #expect(kmh(lorry, nil) == 40)
        #expect(kmh(VehicleProfile(), .forward) == 80)
        #expect(kmh(lorry, .forward, at: Self.at(7.5)) == 30)
        #expect(kmh(lorry, .backward, at: Self.at(7.5)) == 30)
        let backwardOnly = try Self.rules(#""maxspeed:hgv:backward":50"#)
        #expect(backwardOnly.limitsSpeed)
        #expect(backwardOnly.speedLimit(for: lorry, along: .forward) == nil)
        #expect(backwardOnly.speedLimit(for: VehicleProfile(), along: .backward) == nil)
        #expect(backwardOnly.speedLimit(for: lorry, along: .backward).map { ($0 * 3.6).rounded() } == 50)
    }

    /// CSV columns and KML names of the conditional limits come from the rule's definition.
    @Test func aCSVRowCarriesAConditionalLimit() throws {
        #expect(FenceProperties.conditionalKeys["maxweight:conditional"] == .weight)
        #expect(FenceProperties.knownKeys.isSuperset(of: ["maxspeed:conditional", "maxspeed:hgv:conditional"]))
        let csv = """
            id,lat,lon,radius,speed_limit_kmh,maxspeed:conditional
            a,47,8,20,50,30 @ (Mo-Fr 07:00-19:00)

            """
        let rules = try #require(try FenceSet.parse(csv, file: "f.csv", csv: true).settings(0).rules)
        #expect(rules.inForce(atMilliseconds: Self.at(8), localZone: .utc).speedLimit == 30 / 3.6)
    }
}
