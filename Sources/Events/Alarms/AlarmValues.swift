import Fences

/// Who answered an alarm (docs/running.md, "Alarms").
public enum AlarmAcknowledger: String, Sendable, Equatable {
    /// Enter on the terminal that runs `run`.
    case terminal
    /// `gpsfence ack` from any shell.
    case command
    /// `ack` on the broker's `PREFIX/alarm/set` (Home Assistant's button).
    case mqtt
    /// The Acknowledge button of the page `run --web` serves.
    case web
}

/// Where an alarm stands after an alarm event: what the retained MQTT topic and Home Assistant show.
public enum AlarmStatus: String, Sendable, Equatable {
    /// Raised and not yet answered: it sounds.
    case active
    /// Answered while its condition lasts: silent.
    case acknowledged
    /// No alarm.
    case clear
}

/// The event that raised an alarm: its id and type (its fence is the alarm event's own).
public struct AlarmCause: Sendable, Equatable {
    public var eventID: String
    public var kind: GeofenceEvent.Kind

    public init(eventID: String, kind: GeofenceEvent.Kind) {
        self.eventID = eventID
        self.kind = kind
    }
}

/// What keeps an alarm's cause true, and so which event ends it.
public enum AlarmCondition: String, Sendable, Equatable {
    /// Outside the fence it left (the anchor's circle, a flagged fence's `exit`): ends at its `enter`.
    case outside
    /// Inside the fence it entered (a flagged fence's `enter`): ends at its `exit`.
    case inside
    /// No usable fix during an anchor watch: ends at `fix_acquired`.
    case noFix = "no_fix"
    /// The positions are not believed (`integrity` says `jammed` or `spoofed`): ends at the
    /// `integrity` event that says they are again.
    case unreliable
    /// An event that happens once (`too_low`, a listed type): nothing to end, an answer clears it.
    case momentary
}
