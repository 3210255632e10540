import Testing

@testable import Fences

/// The rules' definitions (`FenceRuleKind`): the keys the CSV and KML readers know come from them,
/// each rule's properties resolve with its own messages, and a vehicle restriction compares the
/// fence's limit with the vehicle's measure.
@Suite struct FenceRuleDefinitionTests {
    @Test func theReadersKeyListsComeFromTheDefinitions() {
        let ruleKeys = FenceRuleKind.properties.map(\.property.name)
        #expect(Set(ruleKeys).count == ruleKeys.count, "a key belongs to one rule: \(ruleKeys)")
        #expect(FenceProperties.knownKeys.isSuperset(of: ruleKeys))
        #expect(FenceProperties.measureKeys["clearance"] == .height)
        #expect(
            FenceProperties.numberKeys.isSuperset(of: ["speed_limit", "speed_limit_kmh", "dwell", "approach", "delay"]))
        #expect(FenceProperties.numberKeys.isDisjoint(with: ["active", "timezone", "expires", "clearance"]))
    }

    /// A CSV column of a rule is read as its GeoJSON property: `speed_limit_kmh` as a number,
    /// `clearance` as a sign writes it, `active` as text.
    @Test func aCSVRowCarriesEveryRule() throws {
        let csv = """
            id,lat,lon,radius,speed_limit_kmh,clearance,active,timezone,expires,delay
            a,47,8,20,30,10' 6",Mo-Fr 08:00-18:00,Europe/Berlin,2026-02-06 19:00,45
            b,47,8.1,20,,3.4 m,,,,

            """
        let set = try FenceSet.parse(csv, file: "f.csv", csv: true)
        let a = try #require(set.settings(0).rules)
        #expect(abs((a.speedLimit ?? 0) - 30 / 3.6) < 1e-9)
        #expect(abs((a.clearance ?? 0) - 3.2004) < 1e-9)
        #expect(a.active != nil)
        #expect(a.expires == .instant(1_770_400_800_000), "19:00 in Berlin (UTC+1) is 18:00 UTC")
        #expect(a.exitDelay == 45)
        #expect(set.settings(1).rules?.exitDelay == nil)
        #expect(set.settings(1).rules?.clearance == 3.4)
        #expect(set.settings(1).rules?.speedLimit == nil)
    }

    @Test(arguments: [
        (#""speed_limit": 10, "speed_limit_kmh": 36"#, "speed_limit and speed_limit_kmh: give one of them"),
        (
            #""speed_limit_backward": 10, "speed_limit_backward_kmh": 36"#,
            "speed_limit_backward and speed_limit_backward_kmh: give one of them"
        ),
        (#""clearance": "tall""#, #"clearance 'tall' is not a height like 3.2, 3.2 m, 10'6", 10 ft 6 in or 126 in"#),
        (#""timezone": "Mars/Olympus""#, "timezone: unknown time zone 'Mars/Olympus'"),
        (#""active":5"#, "active '5' is not a string"),
    ])
    func eachRuleRefusesWithItsOwnWords(properties: String, reason: String) {
        let json =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]},"properties":{"radius":5,"#
            + properties + "}}"
        #expect {
            try FenceSet.parse(json, file: "f.geojson")
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// A road's ways along its line each hold their own limit where they have one, else
    /// `speed_limit`; the way not known, the strictest.
    @Test func eachWayAlongARoadHasItsOwnLimit() throws {
        let json =
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[8,47],[8.01,47]]},"#
            + #""properties":{"radius":5,"speed_limit_kmh":40,"speed_limit_forward_kmh":60,"speed_limit_backward":5}}"#
        let rules = try #require(try FenceSet.parse(json, file: "f.geojson").settings(0).rules)
        let car = VehicleProfile()
        #expect(rules.speedLimit(for: car, along: .forward) == 60 / 3.6)
        #expect(rules.speedLimit(for: car, along: .backward) == 5)
        #expect(rules.speedLimit(for: car, along: nil) == 5)
        var forwardOnly = FenceRules()
        forwardOnly.forwardSpeedLimit = 20
        #expect(forwardOnly.limitsSpeed)
        #expect(forwardOnly.speedLimit(for: car, along: .backward) == nil)
        #expect(forwardOnly.speedLimit(for: car, along: nil) == 20)
        // A conditional limit in force holds both ways, as `maxspeed:conditional` does.
        let school = try #require(
            try FenceSet.parse(
                json.replacing(
                    #""radius":5,"#, with: #""radius":5,"maxspeed:conditional":"30 @ (Mo-Su 00:00-24:00)","#),
                file: "f.geojson"
            ).settings(0).rules)
        let inForce = school.inForce(atMilliseconds: 0, localZone: .utc)
        #expect(inForce.speedLimit(for: car, along: .forward) == 30 / 3.6)
        #expect(inForce.speedLimit(for: car, along: .backward) == 30 / 3.6)
    }

    @Test func aRestrictionIsBrokenOnlyByAVehicleAboveItsLimit() {
        var rules = FenceRules()
        rules.clearance = 3.2
        #expect(BrokenRestrictions(rules, vehicle: VehicleProfile(height: 3.5)) == [.clearance])
        #expect(BrokenRestrictions(rules, vehicle: VehicleProfile(height: 3.2)).isEmpty, "as tall as it: passes")
        #expect(BrokenRestrictions(rules, vehicle: VehicleProfile()).isEmpty, "no height given")
        #expect(BrokenRestrictions(FenceRules(), vehicle: VehicleProfile(height: 9)).isEmpty, "no clearance")
        let broken: BrokenRestrictions = [.clearance]
        #expect(Array(broken) == [.clearance])
    }
}
