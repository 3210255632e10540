import Events
import Fences
import JSONOutput
import NMEA
import Presentation

/// The run's alarm in `status` and at the top of `status --watch` (docs/running.md, "Alarms"):
/// whether it sounds, since when, what raised it, and how to answer it.
extension AlarmLatch {
    var statusJSON: String {
        var object = JSONLine()
        object.add("state", status.rawValue)
        var cause = JSONLine()
        cause.add("id", self.cause.eventID)
        cause.add("type", self.cause.kind.rawValue)
        object.addRaw("cause", json: cause.string)
        if let fenceID { object.addRaw("fence", json: fenceID.json) }
        object.add("since", StatusView.time(raisedAt.millisecondsSinceEpoch))
        object.add("anchor_distance", distance.map { ($0 * 10).rounded() / 10 })
        return object.string
    }

    /// One line: red and first while it sounds; the time it last rang in `format`'s zone.
    /// - Parameter ackCommand: the shell command that answers it (`AckCommand`).
    func statusLine(color: Bool, format: HumanFormat, ackCommand: String) -> String {
        let what = cause.kind.rawValue + (fenceID.map { " " + HumanText.printable($0.text) } ?? "")
        let since = format.time(raisedAt)
        switch status {
        case .active:
            let text =
                "  ALARM          SOUNDING since \(since) (\(what)): press Enter where 'gpsfence run' runs, or run '\(ackCommand)'"
            return color ? "\u{1B}[1;97;41m" + text + "\u{1B}[0m" : text
        case .acknowledged, .clear:
            return
                "  alarm          acknowledged (\(what), since \(since)); it sounds again if it comes back or gets worse"
        }
    }
}
