import Glibc

/// The three standard streams, as far as whether a person is at the other end.
public enum StandardStream: Int32, Sendable {
    case input = 0
    case output = 1
    case error = 2

    /// Whether the stream is a terminal: colour, a progress bar and prompts are for people only.
    /// The corresponding C function is `isatty`.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}
