import Fences
import Foundation
import JSONOutput
import NMEA
import Presentation
import Store

/// Text and JSON for `gpsfence visits`: per fence the month's visit count, total and mean time and
/// days with visits, and a month calendar whose days are coloured by the number of visits (like a
/// gym member's visit history).
public enum VisitsView {
    public static func json(_ report: VisitReport) -> String {
        var fences: [String] = []
        for fence in report.fences {
            var line = JSONLine()
            line.addRaw("id", json: fence.fenceID.json)
            line.add("name", fence.name)
            line.add("visits", fence.count)
            line.add("total_seconds", fence.totalSeconds)
            line.add("mean_seconds", fence.meanSeconds)
            line.add("days_with_visits", fence.daysWithVisits)
            line.addArray("per_day", fence.perDay)
            fences.append(line.string)
        }
        var line = JSONLine()
        line.add("year", report.year)
        line.add("month", report.month)
        line.add("timezone", report.timezone)
        line.addArray("fences", json: fences)
        if report.fences.isEmpty {
            let months = report.otherMonths.map { other in
                var month = JSONLine()
                month.add("year", other.year)
                month.add("month", other.month)
                month.add("visits", other.visits)
                return month.string
            }
            line.addArray("months_with_visits", json: months)
        }
        return line.string
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    public static func text(_ report: VisitReport, color: Bool) -> String {
        let month = "\(monthNames[report.month - 1]) \(report.year)"
        guard !report.fences.isEmpty else {
            let none = "\(month): no visits recorded (days in \(report.timezone))."
            guard let newest = report.otherMonths.first else { return none + " The state file holds no visit at all." }
            let shown = report.otherMonths.prefix(6).map { other in
                "\(monthNames[other.month - 1]) \(other.year) (\(other.visits) visit\(other.visits == 1 ? "" : "s"))"
            }
            let more = report.otherMonths.count > 6 ? ", and \(report.otherMonths.count - 6) earlier months" : ""
            return none + "\nVisits were recorded in " + shown.joined(separator: ", ") + more
                + ": gpsfence visits --month \(newest.month) --year \(newest.year)"
        }
        let title = "\(month) (days in \(report.timezone))"
        var lines: [String] = []
        for fence in report.fences {
            // Names and ids come from fence files (by way of the state file): no terminal controls.
            let id = HumanText.printable(fence.fenceID.text)
            lines.append("\(fence.name.map(HumanText.printable) ?? id) [\(id)] — \(title)")
            lines.append(
                "  \(fence.count) visit\(fence.count == 1 ? "" : "s"), total \(duration(fence.totalSeconds)), "
                    + "mean \(duration(fence.meanSeconds)), \(fence.daysWithVisits) day\(fence.daysWithVisits == 1 ? "" : "s") with visits"
            )
            lines += calendar(year: report.year, month: report.month, perDay: fence.perDay, color: color)
            lines.append("")
        }
        if !color {
            lines.append("  a day with visits shows their count: 3*2 is two visits on the 3rd, 3*+ ten or more")
        } else {
            lines.append(
                "  \u{1B}[2mday colours: \u{1B}[0m\(shade(0, color: true))none\u{1B}[0m \(shade(1, color: true))1\u{1B}[0m \(shade(2, color: true))2\u{1B}[0m \(shade(3, color: true))3+\u{1B}[0m"
            )
        }
        return lines.joined(separator: "\n")
    }

    /// A Monday-first month grid; without colour, a day with visits shows its count after it.
    static func calendar(year: Int, month: Int, perDay: [Int], color: Bool) -> [String] {
        // 1970-01-01 was a Thursday: weekday index 3 with Monday = 0.
        let first = CivilDate(year: year, month: month, day: 1).daysSinceEpoch
        let offset = ((first % 7) + 7 + 3) % 7
        var lines = ["  Mo   Tu   We   Th   Fr   Sa   Su"]
        var cells: [String] = Array(repeating: "     ", count: offset)
        for (index, visits) in perDay.enumerated() {
            let day = String(index + 1)
            let padded = String(repeating: " ", count: 2 - day.count) + day
            if color {
                cells.append(shade(visits, color: true) + padded + "\u{1B}[0m" + "   ")
            } else {
                cells.append(padded + (visits > 0 ? "*" + (visits > 9 ? "+" : String(visits)) : "  ") + " ")
            }
        }
        while !cells.isEmpty {
            lines.append("  " + cells.prefix(7).joined().trimmingTrailingSpaces())
            cells.removeFirst(min(7, cells.count))
        }
        return lines
    }

    static func shade(_ visits: Int, color: Bool) -> String {
        switch visits {
        case 0: "\u{1B}[2m"
        case 1: "\u{1B}[30;42m"
        case 2: "\u{1B}[30;102m"
        default: "\u{1B}[1;30;103m"
        }
    }

    /// As the event lines say it (`stayed 1 min 24 s` and `total 1 min 24 s` agree).
    static func duration(_ seconds: Double) -> String { HumanText.duration(seconds) }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
