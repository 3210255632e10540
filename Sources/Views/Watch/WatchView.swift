import Fences
import JSONOutput
import NMEA
import Presentation

/// The text of one `status --watch` frame: a header with the clock, the motion and the fence ahead
/// (what `status` does not show), `status`'s own text, then the latest events.
public enum WatchView {
    /// - Parameter format: the zone of the clocks and the units of speeds and distances.
    /// - Parameter screen: the terminal's size, when known: the header (the alarm, the motion, the
    ///   fence ahead) always shows, and what follows is shortened to fit.
    public static func text(
        _ frame: WatchFrame, interval: Double, color: Bool, format: HumanFormat = HumanFormat(),
        screen: (rows: Int, columns: Int)? = nil
    ) -> String {
        var lines: [String] = []
        let units = format.units
        let now = clock(frame.status.now, format.calendar)
        lines.append(
            "gpsfence status --watch   \(now)   every \(HumanText.duration(interval)), Ctrl-C to quit")
        // A sounding alarm first, in red, with how to answer it.
        if let alarm = frame.status.alarm, alarm.status == .active {
            lines.append(alarm.statusLine(color: color, format: format, ackCommand: frame.status.ackCommand))
        }
        if !frame.status.running {
            // The track's last speed and the fence ahead were the stopped run's: shown as current
            // they would say the vehicle is still moving.
            let receiver = frame.status.receiver
            let when =
                receiver.stoppedAt.map { "stopped at \(format.time($0))" }
                ?? receiver.updatedAt.map { "no sign of it since \(format.time($0))" } ?? "never started"
            lines.append("  run            \(when): no current motion and no fence ahead")
        } else if let point = frame.latest {
            var motion: [String] = []
            if let speed = point.speed {
                motion.append(units.speed(speed))
            }
            if let course = point.course { motion.append("course \(Limits.int(course.rounded()))°") }
            if let satellites = point.satellites { motion.append("\(satellites) satellites") }
            if let hdop = point.hdop { motion.append("hdop \(formatted(hdop, decimals: 1))") }
            lines.append("  motion         " + (motion.isEmpty ? "unknown" : motion.joined(separator: ", ")))
        } else {
            lines.append("  motion         no track point yet")
        }
        if let ahead = frame.ahead {
            let name = ahead.name.map { HumanText.printable($0) + " " } ?? ""
            let eta = ahead.eta.map { ", eta " + HumanText.duration($0) } ?? ""
            lines.append(
                "  ahead          \(name)[\(HumanText.printable(ahead.id))] \(units.distance(ahead.distance))\(eta)"
            )
        } else if frame.status.running {
            lines.append("  ahead          no fence on the course within \(units.distance(WatchFrame.lookAhead))")
        }
        lines.append("")
        let header = lines.count
        var status = frame.status
        // A sounding alarm is said once, at the top.
        if status.alarm?.status == .active { status.alarm = nil }
        lines.append(StatusView.text(status, color: color, format: format))
        lines.append("")
        lines.append("  recent events")
        if frame.events.isEmpty { lines.append("    none yet") }
        for record in frame.events.reversed() {
            var line = "    \(clock(record.time.millisecondsSinceEpoch, format.calendar))  \(record.kind.rawValue)"
            if let fence = record.fence {
                line += "  " + (fence.name.map { HumanText.printable($0) + " " } ?? "")
                line += "[\(HumanText.printable(fence.id.text))]"
            }
            switch record.event.payload {
            case .deviceLost(let message, _), .deviceConnected(let message, _):
                line += "  " + HumanText.printable(message)
            case .error(let problem, _):
                line += "  " + HumanText.printable(problem.text)
            case .registered(_, let message?): line += "  " + HumanText.printable(message)
            case .speeding(let speeding): line += "  " + units.speeding(speeding.speed, limit: speeding.limit)
            case .integrity(let integrity): line += "  " + integrity.state.sentence
            case .enter, .exit, .dwell, .visit, .cross, .approach, .fixLost, .fixAcquired, .heartbeat,
                .registered, .unregistered, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
                .alarmCleared:
                break
            }
            lines.append(line)
        }
        return fitted(lines.joined(separator: "\n"), header: header, screen: screen)
    }

    /// `text` in at most `screen.rows` rows (a line longer than the width takes more than one):
    /// its first `header` lines whole, then as much of the rest as fits, and a last line that says
    /// how much was left out. A terminal too short even for the header gets the header's first
    /// lines (the alarm first of all).
    static func fitted(_ text: String, header: Int, screen: (rows: Int, columns: Int)?) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let screen else { return text }
        let heights = lines.map { rowsTaken(by: $0, columns: screen.columns) }
        guard heights.reduce(0, +) > screen.rows else { return text }
        var kept: [Substring] = []
        var used = 0
        // One row is kept for the line that says what was left out.
        for (index, line) in lines.enumerated() where used + heights[index] <= screen.rows - 1 || index < header {
            if used + heights[index] > screen.rows { break }
            kept.append(line)
            used += heights[index]
        }
        let hidden = lines.count - kept.count
        guard used < screen.rows else { return kept.joined(separator: "\n") }
        return (kept + ["  ... \(hidden) more lines: a taller terminal shows them"]).joined(separator: "\n")
    }

    /// The rows `line` takes on a terminal `columns` wide: its characters without colour codes.
    static func rowsTaken(by line: Substring, columns: Int) -> Int {
        var visible = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                visible += 1
            }
        }
        return max(1, (visible + columns - 1) / max(columns, 1))
    }

    /// `05:15:36-05:00`: the local clock with its offset (the date is the status's).
    static func clock(_ milliseconds: Int64, _ calendar: LocalCalendar) -> String {
        calendar.clockText(milliseconds) + calendar.offsetText(calendar.offsetSeconds(at: milliseconds))
    }
}
