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
