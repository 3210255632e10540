import Testing

@testable import Fences

/// Names and properties that repeat are kept once; each fence still reads its own, or none.
@Suite struct SharedTextsTests {
    @Test func eachFenceKeepsItsNameAndPropertiesWhenManyRepeat() throws {
        var builder = FenceSetBuilder()
        // more distinct texts than are remembered, revisited in an order that evicts them
        func name(_ k: Int) -> String? { k % 4 == 0 ? nil : "road \((k * 7) % 23)" }
        func properties(_ k: Int) -> String { #"{"speed_limit_kmh":\#((k * 11) % 29 + 10),"radius":7.5}"# }
        for k in 0..<300 {
            try builder.add(
                id: .number(String(k)), name: name(k), propertiesJSON: properties(k),
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        for k in 0..<300 {
            #expect(set.name(k) == name(k), "fence \(k)")
            #expect(set.info(k).propertiesJSON == properties(k), "fence \(k)")
        }
    }

    @Test func aFewDistinctTextsAreKeptOnceEach() throws {
        var builder = FenceSetBuilder()
        for k in 0..<1000 {
            try builder.add(
                id: .number(String(k)), name: k % 2 == 0 ? nil : "B\(k % 3)",
                propertiesJSON: #"{"maxspeed":"\#(k % 5 * 10 + 30)"}"#,
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        #expect(set.properties.distinctCount == 5)
        #expect(set.names.distinctCount == 3)
        #expect(set.name(0) == nil)
        #expect(set.name(1) == "B1")
        #expect(set.info(7).propertiesJSON == #"{"maxspeed":"50"}"#)
    }

    /// A country's roads come in the map's order only in runs: a text seen long before, with
    /// many others since, is found again.
    @Test func aTextSeenLongAgoIsStillKeptOnce() throws {
        var builder = FenceSetBuilder()
        func properties(_ k: Int) -> String { #"{"name":"street \#(k * 7 % 300)","speed_limit_kmh":\#(k % 40 * 10)}"# }
        for k in 0..<2000 {
            try builder.add(
                id: .number(String(k)), name: "street \(k * 7 % 300)", propertiesJSON: properties(k),
                shape: .circle(CircleShape(lat: Double(k % 80), lon: Double(k % 170), radius: 10)))
        }
        let set = builder.build()
        #expect(set.names.distinctCount == 300)
        #expect(set.properties.distinctCount == 600)
        for k in [0, 299, 300, 1999] {
            #expect(set.name(k) == "street \(k * 7 % 300)")
            #expect(set.info(k).propertiesJSON == properties(k))
        }
    }

    @Test func anEmptyTextIsATextNotNone() throws {
        var builder = FenceSetBuilder()
        try builder.add(id: .number("1"), name: "", shape: .circle(CircleShape(lat: 1, lon: 1, radius: 10)))
        try builder.add(id: .number("2"), name: nil, shape: .circle(CircleShape(lat: 2, lon: 2, radius: 10)))
        let set = builder.build()
        #expect(set.name(0) == "")
        #expect(set.name(1) == nil)
    }
}
