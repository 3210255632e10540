import Testing

@testable import Fences

/// The truck's restrictions as fence properties: weights as signs and OpenStreetMap write them
/// (tonnes by default; `t`, `kg`, `st`, `lt`, `lbs`, `cwt`), widths and lengths as heights are
/// written, `hgv` access, and `maxspeed:hgv` for a heavy goods vehicle only.
@Suite struct TruckRuleTests {
    @Test(arguments: [
        ("7.5", 7500.0), ("7.5 t", 7500), ("7.5t", 7500), ("12000 kg", 12000), ("10 st", 9071.8474),
        ("10 lt", 10160.469088), ("20000 lbs", 9071.8474), ("20000 lb", 9071.8474), ("150 cwt", 6803.88555),
    ])
    func aWeightAsSignsWriteIt(text: String, kilograms: Double) throws {
        let read = try #require(Weight.kilograms(text), "\(text)")
        #expect(abs(read - kilograms) < 1e-6, "\(text): \(read)")
    }

    @Test(arguments: ["", "heavy", "7.5 tons of bricks", "-3", "0", "7,5 t", "7.5 kgs"])
    func notAWeight(text: String) {
        #expect(Weight.kilograms(text) == nil, "\(text)")
    }

    static func rules(_ properties: String) throws -> FenceRules? {
        let json =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]},"properties":{"radius":5,"#
            + properties + "}}"
        return try FenceSet.parse(json, file: "f.geojson").settings(0).rules
    }

    @Test func everyRestrictionReadsItsProperty() throws {
        let rules = try #require(
            try Self.rules(
                #""maxweight":7.5,"maxaxleload":"10 st","maxwidth":"7'6\"","maxlength":12,"hgv":"no","maxspeed:hgv":60"#
            ))
        #expect(rules.maxWeight == 7500)
        #expect(abs((rules.maxAxleLoad ?? 0) - 9071.8474) < 1e-6)
        #expect(abs((rules.maxWidth ?? 0) - 2.286) < 1e-9)
        #expect(rules.maxLength == 12)
        #expect(rules.hgv == HGVAccess.no)
        #expect(abs((rules.hgvSpeedLimit ?? 0) - 60 / 3.6) < 1e-9)
    }

    @Test(arguments: [
        (#""hgv":"never""#, "hgv 'never' is not one of no, destination, yes, designated"),
        (#""maxweight":"heavy""#, "maxweight 'heavy' is not a weight like 7.5 (tonnes)"),
        (#""maxwidth":"wide""#, "maxwidth 'wide' is not a height like 3.2"),
    ])
    func aBadRestrictionRefusesTheFile(properties: String, reason: String) {
        #expect {
            try Self.rules(properties)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aVehicleBreaksWhatItExceeds() {
        var rules = FenceRules()
        rules.maxWeight = 7500
        rules.maxWidth = 2.3
        rules.maxLength = 12
        rules.maxAxleLoad = 10000
        rules.hgv = .no
        let truck = VehicleProfile(width: 2.55, length: 16.5, weight: 18000, axleLoad: 9000, hgv: true)
        #expect(Array(BrokenRestrictions(rules, vehicle: truck)) == [.width, .length, .weight, .hgv])
        let van = VehicleProfile(width: 2.0, length: 6, weight: 3500, axleLoad: 2000)
        #expect(BrokenRestrictions(rules, vehicle: van).isEmpty, "a van within every limit, and no HGV")
        rules.hgv = .destination
        #expect(!BrokenRestrictions(rules, vehicle: truck).contains(.hgv), "destination traffic may pass")
    }

    @Test func anHGVLimitHoldsForHGVsOnly() {
        var rules = FenceRules()
        rules.speedLimit = 80 / 3.6
        rules.hgvSpeedLimit = 60 / 3.6
        #expect(rules.speedLimit(for: VehicleProfile(), along: nil) == 80 / 3.6)
        #expect(rules.speedLimit(for: VehicleProfile(hgv: true), along: nil) == 60 / 3.6)
        rules.speedLimit = nil
        #expect(rules.speedLimit(for: VehicleProfile(), along: nil) == nil)
        #expect(rules.speedLimit(for: VehicleProfile(hgv: true), along: nil) == 60 / 3.6)
    }
}
