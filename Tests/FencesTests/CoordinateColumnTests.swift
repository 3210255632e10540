import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// The corridors' coordinates read back the very doubles that were added, in 4 bytes while they
/// are whole ten-millionths of a degree and in 8 from the first that is not.
@Suite struct CoordinateColumnTests {
    @Test func sevenDecimalsAreKeptInFourBytesAndReadBackExactly() {
        var rng = SeededGenerator(seed: 5)
        var column = CoordinateColumn()
        var added: [Double] = []
        for k in 0..<20000 {
            // as the loader reads them from text: the decimal's correctly rounded double
            let digits = Int.random(in: -1_800_000_000...1_800_000_000, using: &rng)
            let text = k % 2 == 0 ? String(format: "%.7f", Double(digits) / 1e7) : "\(Double(digits % 1000) / 100)"
            let value = Double(text)!
            column.append(value)
            added.append(value)
        }
        for value in [180.0, -180.0, 0.0, 47.1234567, -0.0000001] {
            column.append(value)
            added.append(value)
        }
        #expect(column.isFixed)
        #expect(column.bytes == 4 * added.count)
        for (k, value) in added.enumerated() {
            #expect(column[k].bitPattern == value.bitPattern, "value \(k): \(value)")
            #expect(abs(column.approximate(k) - value) < 1e-13)
        }
    }

    /// A column appended to another (the second half of a file read beside the first) holds what
    /// one column given every value in turn holds, whichever of the two keeps doubles.
    @Test func aColumnAppendedHoldsWhatOneColumnHolds() {
        let whole = [8.1234567, 47.5, -122.4194155, 13.0000001]
        let fine = [8.123456789, 1e-9]
        for (first, second) in [(whole, whole), (whole, fine), (fine, whole), (fine, fine)] {
            var one = CoordinateColumn()
            for value in first + second { one.append(value) }
            var head = CoordinateColumn()
            for value in first { head.append(value) }
            var tail = CoordinateColumn()
            for value in second { tail.append(value) }
            head.append(contentsOf: tail)
            #expect(head.isFixed == one.isFixed && head.count == one.count && head.bytes == one.bytes)
            #expect((0..<one.count).allSatisfy { head[$0].bitPattern == one[$0].bitPattern }, "\(first) + \(second)")
        }
    }

    @Test func theFirstFinerValueTurnsEveryValueIntoADouble() {
        var column = CoordinateColumn()
        let values = [8.1234567, 47.5, -122.4194155, 8.123456789, 1e-9, 13.0000001, 200.5]
        for value in values { column.append(value) }
        #expect(!column.isFixed)
        #expect(column.bytes == 8 * values.count)
        for (k, value) in values.enumerated() { #expect(column[k].bitPattern == value.bitPattern, "value \(k)") }
    }

    @Test func negativeZeroKeepsItsSign() {
        var column = CoordinateColumn()
        column.append(-0.0)
        #expect(column[0].bitPattern == (-0.0).bitPattern)
    }

    @Test func gatheringKeepsTheValuesAndTheirForm() {
        for values in [[1.5, 2.25, 3.125, 4.0625], [1.5, 2.25, 3.125, 4.123456789]] {
            var column = CoordinateColumn()
            for value in values { column.append(value) }
            let moved = column.gathered([2..<4, 0..<2], count: 4)
            #expect(moved.isFixed == column.isFixed)
            #expect((0..<4).map { moved[$0] } == [values[2], values[3], values[0], values[1]])
        }
    }
}
