import Events
import Fences

extension ConsoleSink {
    /// `raised by exit, 57 m from the anchor, press Enter or run 'gpsfence ack'`: what a person
    /// reads of an alarm's event.
    /// - Parameter ackCommand: the shell command that answers it (`AckCommand`).
    static func alarmDetails(_ alarm: GeofenceEvent.Alarm, by who: AlarmAcknowledger?, ackCommand: String)
        -> [String]
    {
        var details = ["raised by " + alarm.cause.kind.rawValue]
        if let distance = alarm.anchorDistance { details.append(fromTheAnchor(distance)) }
        if let who { details.append("by " + who.rawValue) }
        switch alarm.status {
        case .active: details.append("sounding: press Enter or run '\(ackCommand)'")
        case .acknowledged: details.append("acknowledged, the condition lasts")
        case .clear: break
        }
        return details
    }

    /// `57 m from the anchor`
    static func fromTheAnchor(_ distance: Double) -> String { "\(Limits.int(distance.rounded())) m from the anchor" }
}
