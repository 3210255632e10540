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
    /// What to do about it, or what happened, when we know (the group to join for EACCES).
    public var hint: Hint?

    /// What a failed call's errno does not say.
    public enum Hint: Equatable, Sendable {
        /// The device hung up (read returned end of file, or poll said so).
        case hungUp
        /// The path leads to another device, or to none, while ours is still open.
        case pathMoved
        /// Not allowed to open the device; who may, when the device could be looked up.
        case permission(DevicePermissions?)
        /// Another program holds the port exclusively.
        case busy
        /// Nothing at the path.
        case missing

        /// The words, for the device at `path`.
        public func text(path: String) -> String {
            switch self {
            case .hungUp: "end of file: the device hung up"
            case .pathMoved: "the path no longer leads to the open device"
            case .permission(let permissions): permissions?.fix ?? "you lack permission to open it"
            case .busy:
                "another program holds the port exclusively (gpsd, ModemManager, a serial console?); "
                    + "run 'gpsfence doctor --device \(path)' to see which"
            case .missing: "no such device; is the receiver plugged in? 'gpsfence devices' lists the ones found"
            }
        }
    }

    public init(operation: String, path: String, errno: Errno, hint: Hint? = nil) {
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
        if let hint { text += "; " + hint.text(path: path) }
        return text
    }
}
