import SystemPackage

/// A failed system call on a serial device: which call, on which path, and the `errno` it set.
///
/// Errors are values, as in swift-system: the caller decides whether a vanished device means "wait
/// for it to come back" (the reader) or "tell the user and stop" (`record`, `doctor`).
public struct SerialError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The C call that failed ("open", "tcsetattr", ...).
    public var operation: String
    /// The device path as the user gave it.
    public var path: String
    public var errno: Errno
    /// What to do about it, when we know (the group to join for EACCES).
    public var hint: String?

    public init(operation: String, path: String, errno: Errno, hint: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.hint = hint
    }

    /// The device went away or hung up: unplugged, or the simulator on the other end of a
    /// pseudo-terminal exited. The reader reconnects after these.
    public var isDisconnect: Bool {
        switch errno {
        case .ioError, .noSuchAddressOrDevice, .noSuchFileOrDirectory, .operationNotSupportedByDevice,
            .badFileDescriptor:
            true
        default: false
        }
    }

    public var description: String {
        var text = "\(operation) '\(path)' failed: \(errno.description)"
        if let hint { text += "; " + hint }
        return text
    }
}
