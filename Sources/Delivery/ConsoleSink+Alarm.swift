import Events
import Fences

extension ConsoleSink {
    /// `raised by exit, 57 m from the anchor, press Enter or run 'gpsfence ack'`: what a person
    /// reads of an alarm's event.
    static func alarmDetails(_ event: GeofenceEvent) -> [String] {
        var details: [String] = []
        if let cause = event.cause { details.append("raised by " + cause.kind.rawValue) }
        if let distance = event.anchorDistance { details.append("\(Limits.int(distance.rounded())) m from the anchor") }
        if let who = event.acknowledgedBy { details.append("by " + who.rawValue) }
        switch event.alarmStatus {
        case .active?: details.append("sounding: press Enter or run 'gpsfence ack'")
        case .acknowledged?: details.append("acknowledged, the condition lasts")
        case .clear?, nil: break
        }
        return details
    }
}
