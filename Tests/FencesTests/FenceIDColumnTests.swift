import Testing

@testable import Fences

/// The fences' ids as one column of bytes: each reads back as it was given, and an id given twice
/// is found as `FenceID.Key` compares them (numbers by value, a string never equal to a number).
@Suite struct FenceIDColumnTests {
    @Test func idsReadBackAsGiven() {
        let given: [FenceID] = [
            .string("osm:way/1234567890"), .number("1e2"), .string(""), .string("Ünïcode \"quoted\""),
            .number("-0.50"), .string("17"),
        ]
        var column = FenceIDColumn()
        for id in given { #expect(column.appendIfNew(id) == nil, "\(id)") }
        #expect(Array(column) == given)
        #expect(column.count == given.count)
        #expect(column.isNumber(1) && !column.isNumber(5))
        #expect(String(decoding: column.bytes(of: 3), as: UTF8.self) == "Ünïcode \"quoted\"")
    }

    /// A GeoJSON file's ids are often 0, 1, 2...: their slots (a hash's low bits) must spread as
    /// a string's do, or every lookup walks one run of them all and loading 10,000 takes seconds.
    @Test func wholeNumberIdsSpreadOverTheSlots() {
        let slots = 8192
        for first in [0, 1_000_000, 4_294_967_296] {
            let used = Set(
                (first..<first + slots / 2).map { Int(FenceIDColumn.hash(number: Double($0)) % UInt64(slots)) })
            // Hashing at random fills about 3,220 of the 8,192 with 4,096 keys.
            #expect(used.count > 3000, "ids from \(first): \(used.count) distinct slots of \(slots)")
        }
    }

    @Test func anIdGivenTwiceIsFoundNumbersByValue() {
        var column = FenceIDColumn()
        #expect(column.appendIfNew(.number("1")) == nil)
        #expect(column.appendIfNew(.string("1")) == nil, "a string is not the number")
        #expect(column.appendIfNew(.number("0")) == nil)
        #expect(column.appendIfNew(.number("1.0")) == 0)
        #expect(column.appendIfNew(.number("10e-1")) == 0)
        #expect(column.appendIfNew(.string("1")) == 1)
        #expect(column.appendIfNew(.number("-0")) == 2)
        #expect(column.appendIfNew(.string("1 ")) == nil)
        #expect(column.count == 4, "nothing appended for an id given twice")
        #expect(column.firstIndex(sameAs: .number("1.00")) == 0)
        #expect(column.firstIndex(sameAs: .string("2")) == nil)
        #expect(column.firstIndex(exactly: .number("1")) == 0)
        #expect(column.firstIndex(exactly: .number("1.0")) == nil, "written otherwise")
        #expect(column.firstIndex(exactly: .string("1")) == 1)
    }

    /// Enough ids for the table to grow many times; every one still found after.
    @Test func manyIdsAreEachFoundOnce() {
        var column = FenceIDColumn()
        column.reserveLookup(100)
        var refused = 0
        for n in 0..<20_000 {
            let id: FenceID = n % 3 == 0 ? .number(String(n)) : .string("osm:way/\(1_000_000_000 + n)")
            if column.appendIfNew(id) != nil { refused += 1 }
        }
        #expect(refused == 0)
        var found = 0
        for n in stride(from: 0, to: 20_000, by: 7) {
            let id: FenceID = n % 3 == 0 ? .number("\(n).0") : .string("osm:way/\(1_000_000_000 + n)")
            if column.firstIndex(sameAs: id) == n { found += 1 }
        }
        #expect(found == (20_000 + 6) / 7)
        #expect(column.appendIfNew(.string("osm:way/1000012346")) == 12_346)
        #expect(column.firstIndex(sameAs: .number("3")) == 3)
        #expect(column.firstIndex(sameAs: .string("osm:way/1000019999")) == 19_999)
        column.appendUnique(.string("after"))
        #expect(column.last == .string("after"))
    }
}
