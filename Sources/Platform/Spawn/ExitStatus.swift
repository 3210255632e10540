/// A child's wait status, as `waitpid` reports it.
public struct ExitStatus: Sendable, Equatable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The signal that killed the child, else nil (it exited).
    public var signal: Int32? {
        let number = rawValue & 0x7F
        return number == 0 ? nil : number
    }

    /// The exit code, when it exited rather than being killed.
    public var code: Int32? { signal == nil ? (rawValue >> 8) & 0xFF : nil }

    /// nil for a clean exit, else what went wrong, to follow the program's name in a message.
    public var problem: String? {
        if let signal { return "was killed by signal \(signal)" }
        return code == 0 ? nil : "exited with status \(code ?? -1)"
    }
}
