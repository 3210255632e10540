/// The state file a command was asked to read is not there. Bad input (exit status 2, through
/// `classify`, the same in every command): the commands that read it never create it to show it
/// empty.
public struct StateFileMissing: Error, CustomStringConvertible, Sendable {
    /// What the command wanted of the file, which says what writes it.
    public enum Need: Sendable, Equatable {
        /// What a run knows: `status`, `status --forget`, `sync`.
        case runState
        /// Visits (`visits`).
        case visits
        /// The kept track (`report`).
        case track
        /// The last fix (`fences add --here`).
        case lastFix
        /// The alarm's latch (`ack`).
        case alarm
    }

    public let path: String
    public let need: Need

    public init(path: String, need: Need) {
        self.path = path
        self.need = need
    }

    /// What to tell the user, naming the file and what writes it.
    public var message: String {
        switch need {
        case .runState: "no state file at '\(path)': it is written by 'gpsfence run' (or 'replay --state')"
        case .visits: "no state file at '\(path)': visits are recorded by 'gpsfence run' or 'gpsfence replay --state'"
        case .track: "no state file at '\(path)': the track is kept by 'gpsfence run' or 'gpsfence replay --state'"
        case .lastFix: "no state file at '\(path)': --here takes the last fix of 'gpsfence run' from it"
        case .alarm:
            "no state file at '\(path)' (so no alarm is sounding): it is written by 'gpsfence run'; give the run's "
                + "--state FILE"
        }
    }

    public var description: String { message }
}
