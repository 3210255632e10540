import Testing

@testable import Store
@testable import Views

/// The month calendar of `gpsfence visits`, without colour: Monday first, a day with visits shows
/// their count.
@Suite struct VisitsViewTests {
    /// February 2026 begins on a Sunday (1 January 2026 was a Thursday, 31 days before), so its 1st
    /// sits under "Su" and its 28 days take five rows.
    @Test func februaryTwentyTwentySixStartsUnderSunday() throws {
        var perDay = Array(repeating: 0, count: 28)
        perDay[0] = 2
        perDay[2] = 12
        let lines = VisitsView.calendar(year: 2026, month: 2, perDay: perDay, color: false)
        #expect(lines.count == 6, "\(lines)")
        let header = try #require(lines.first)
        let sunday = try #require(header.range(of: "Su")).upperBound
        let first = lines[1]
        #expect(first.hasSuffix(" 1*2"), "\(first)")
        #expect(
            first.distance(from: first.startIndex, to: try #require(first.firstIndex(of: "1")))
                == header.distance(from: header.startIndex, to: sunday) - 1)
        #expect(lines[2].hasPrefix("   2    3*+  4"), "ten or more: \(lines[2])")
        #expect(lines[5].hasPrefix("  23   24"))
        #expect(lines[5].hasSuffix("28"))
    }

    /// A month with no visit is said in one line, not drawn, with where the visits are.
    @Test func aMonthWithoutVisitsSaysSo() {
        let text = VisitsView.text(VisitReport(year: 2026, month: 3, daysInMonth: 31, fences: []), color: false)
        #expect(text == "March 2026: no visits recorded (days in UTC). The state file holds no visit at all.")
        var elsewhere = VisitReport(year: 2026, month: 3, daysInMonth: 31, fences: [])
        elsewhere.otherMonths = [.init(year: 2026, month: 2, visits: 3), .init(year: 2025, month: 12, visits: 1)]
        #expect(
            VisitsView.text(elsewhere, color: false)
                == "March 2026: no visits recorded (days in UTC).\nVisits were recorded in February 2026 (3 visits), "
                + "December 2025 (1 visit): gpsfence visits --month 2 --year 2026")
    }
}
