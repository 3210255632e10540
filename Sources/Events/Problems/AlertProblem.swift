import Platform

/// A problem of an alert on this machine: `--say`, `--notify`, `--bell` (docs/running.md).
public enum AlertProblem: Sendable, Equatable {
    case say(SayProblem)
    case notify(NotifyProblem)
    case bell(BellProblem)

    public var text: String {
        switch self {
        case .say(let problem): "--say: " + problem.text
        case .notify(let problem): "--notify: " + problem.text
        case .bell(let problem): "--bell: " + problem.text
        }
    }
}

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

/// What `--notify` could not show, or why it shows nothing.
public enum NotifyProblem: Sendable, Equatable {
    /// No D-Bus session bus and no display: notifications are off.
    case noDesktopSession
    /// `notify-send` is not on `PATH`: notifications are off.
    case notInstalled
    /// Queued when the stop's deadline passed.
    case notSentAtStop
    case run(ProgramRunFailure)

    public var text: String {
        switch self {
        case .noDesktopSession:
            "no desktop session (no D-Bus session bus, no display); notifications are off"
        case .notInstalled:
            "notify-send is not installed (Debian: apt-get install libnotify-bin); notifications are off"
        case .notSentAtStop:
            "a notification was not sent: gpsfence is stopping"
        case .run(let failure):
            failure.text
        }
    }
}

/// `--bell` has no terminal to ring (a service): it carries on without it.
public struct BellProblem: Sendable, Equatable {
    /// The terminal asked for (`/dev/tty`).
    public let device: String
    public let error: FileCallError

    public init(device: String, error: FileCallError) {
        self.device = device
        self.error = error
    }

    public var text: String { "no terminal to ring (\(device): \(error.reason)); carrying on without it" }
}
