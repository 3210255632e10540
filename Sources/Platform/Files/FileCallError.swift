import Glibc
import SystemPackage

/// A file call that failed: which C call, on which path, and the errno it set. `reason` is the C
/// library's own words for the errno (`strerror`), the words every message about a file shows.
public struct FileCallError: Error, Equatable, Sendable, CustomStringConvertible {
    public var call: String
    public var path: String
    public var errno: Errno

    public init(call: String, path: String, errno: Errno) {
        self.call = call
        self.path = path
        self.errno = errno
    }

    /// The error the C call that just failed left in `errno`.
    static func last(_ call: String, _ path: String) -> FileCallError {
        FileCallError(call: call, path: path, errno: Errno(rawValue: Glibc.errno))
    }

    /// `No such file or directory`, `Permission denied`: what `strerror` says of the errno.
    /// The corresponding C function is `strerror`.
    public var reason: String { String(cString: strerror(errno.rawValue)) }

    public var description: String { "\(call) \(path): \(reason)" }
}

/// Opens `path` with `flags` (and `mode` for a file it creates), EINTR retried.
/// The corresponding C function is `open`.
func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Result<Int32, Errno> {
    retryingInterrupts { Glibc.open(path, flags, mode) }
}

/// Writes all of `bytes` to `descriptor`; nil when they were written, else the errno.
/// The corresponding C function is `write`, EINTR retried.
public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Errno? {
    var written = 0
    while written < bytes.count {
        switch retryingInterrupts({ Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written) }) {
        case .success(0): return .ioError
        case .success(let count): written += count
        case .failure(let errno): return errno
        }
    }
    return nil
}
