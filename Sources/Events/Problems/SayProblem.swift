/// What `--say` could not speak, or why it speaks nothing.
public enum SayProblem: Sendable, Equatable {
    /// The voice program is not on `PATH`: spoken alerts are off.
    case notInstalled(program: String)
    /// `waiting` utterances were queued already: this one was dropped.
    case dropped(waiting: Int, utterance: String)
    /// Queued when the stop's deadline passed.
    case notSpokenAtStop(utterance: String)
    case run(ProgramRunFailure)

    public var text: String {
        switch self {
        case .notInstalled(let program):
            // Only the default voice has a package to name.
            let hint = program == "espeak-ng" ? " (Debian: apt-get install espeak-ng)" : ""
            return "\(program) is not installed or not executable\(hint); spoken alerts are off"
        case .dropped(let waiting, let utterance):
            return "\(waiting) alerts are waiting to be spoken; '\(utterance)' was dropped"
        case .notSpokenAtStop(let utterance):
            return "'\(utterance)' was not spoken: gpsfence is stopping"
        case .run(let failure):
            return failure.text
        }
    }
}
