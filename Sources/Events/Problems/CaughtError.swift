/// An error thrown by a lower layer (the state file, a system call) as a problem carries it: the
/// error's own rendering, taken when it was caught. Built only from an `Error`, so a sentence
/// cannot pass for one.
public struct CaughtError: Sendable, Equatable, CustomStringConvertible {
    /// The error as it renders itself (`"\(error)"`).
    public let rendered: String

    public init(_ error: any Error) { rendered = "\(error)" }

    public var description: String { rendered }
}
