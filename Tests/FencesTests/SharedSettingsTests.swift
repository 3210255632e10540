import Testing

@testable import Fences

/// Fences with the same settings share one row of the settings table; each fence still reads its own.
@Suite struct SharedSettingsTests {
    @Test func eachFenceKeepsItsSettingsWhenManyRepeat() throws {
        var builder = FenceSetBuilder()
        // more distinct values than the builder remembers, revisited in an order that evicts them
        let dwells = (0..<200).map { Double(($0 * 7) % 23 + 1) }
        for (k, dwell) in dwells.enumerated() {
            let settings = k % 5 == 0 ? FenceSettings() : FenceSettings(dwell: dwell, tags: k % 3 == 0 ? ["x"] : nil)
            try builder.add(
                id: .number(String(k)), settings: settings,
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        for (k, dwell) in dwells.enumerated() {
            let expected = k % 5 == 0 ? FenceSettings() : FenceSettings(dwell: dwell, tags: k % 3 == 0 ? ["x"] : nil)
            #expect(set.settings(k) == expected, "fence \(k)")
        }
    }

    @Test func aFewDistinctSettingsAreKeptOnceEach() throws {
        var builder = FenceSetBuilder()
        for k in 0..<1000 {
            try builder.add(
                id: .number(String(k)), settings: FenceSettings(dwell: Double(k % 5 + 1)),
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        #expect(set.settingsTable.count == 5)
        #expect((0..<1000).allSatisfy { set.settings($0).dwell == Double($0 % 5 + 1) })
    }

    @Test func asManyDistinctSettingsAsAreRememberedAreKeptOnceEachInAnyOrder() throws {
        var builder = FenceSetBuilder()
        let kept = FenceSetBuilder.recentSettingsKept
        // every value once in order, then again in a scrambled order: each is found again
        let order = (0..<kept) + (0..<10 * kept).map { ($0 * 7 + 3) % kept }
        for (k, value) in order.enumerated() {
            try builder.add(
                id: .number(String(k)), settings: FenceSettings(dwell: Double(value + 1)),
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        #expect(set.settingsTable.count == kept)
        #expect(order.indices.allSatisfy { set.settings($0).dwell == Double(order[$0] + 1) })
    }

    @Test func defaultSettingsAreThoseWithNothingSet() {
        #expect(FenceSettings().isDefault)
        var each: [FenceSettings] = []
        for k in 0..<7 {
            var settings = FenceSettings()
            switch k {
            case 0: settings.dwell = 1
            case 1: settings.hysteresis = 1
            case 2: settings.approach = 1
            case 3: settings.notify = []
            case 4: settings.tags = []
            case 5: settings.rules = FenceRules()
            default: settings.alarm = []
            }
            each.append(settings)
        }
        for settings in each {
            #expect(!settings.isDefault, "\(settings)")
            #expect(settings != FenceSettings())
        }
    }

    /// Settings whose plain members differ are unequal; equal plain members say nothing either way.
    @Test func settingsThatDifferInAPlainMemberAreUnequal() {
        var base = FenceSettings(dwell: 5, tags: ["road"])
        base.rules = FenceRules()
        base.rules?.speedLimit = 50 / 3.6
        var variants: [FenceSettings] = []
        for k in 0..<11 {
            var settings = base
            switch k {
            case 0: settings.dwell = 6
            case 1: settings.hysteresis = 1
            case 2: settings.approach = 1
            case 3: settings.rules = nil
            case 4: settings.rules?.speedLimit = 30 / 3.6
            case 5: settings.rules?.clearance = 3.5
            case 6: settings.rules?.maxWeight = 7500
            case 7: settings.rules?.maxWidth = 2.2
            case 8: settings.rules?.hgvSpeedLimit = 80 / 3.6
            case 9: settings.rules?.hgv = .no
            default: settings.rules?.conditional = ConditionalLimitTable(limits: [], zone: nil)
            }
            variants.append(settings)
        }
        for settings in variants {
            #expect(settings.plainMembers != base.plainMembers, "\(settings)")
            #expect(settings != base)
        }
        // equal settings, and settings that differ only in members it does not read
        var copy = base
        copy.tags = ["road"]
        #expect(copy.plainMembers == base.plainMembers && copy == base)
        var otherTags = base
        otherTags.tags = ["street"]
        #expect(otherTags.plainMembers == base.plainMembers && otherTags != base)
    }
}
