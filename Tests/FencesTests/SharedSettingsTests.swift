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
}
