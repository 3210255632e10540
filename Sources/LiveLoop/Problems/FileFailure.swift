import Platform
import SystemPackage

/// Why a file could not be opened, read, created or written, as a value: the failed call's own
/// error, put into words only when the problem is said.
public enum FileFailure: Sendable {
    /// A Platform file call failed: said as `strerror`'s words for its errno.
    case call(FileCallError)
    /// A step of Platform's atomic replace failed: said as `strerror`'s words for its errno.
    case replace(ReplaceError)
    /// Another error (a descriptor's `Errno`, a reader's error): said as it describes itself.
    case error(any Error)
    /// A check of the file failed with this errno: said as `strerror`'s words.
    case errno(Errno)
    /// The file is there, and readable, but cannot be read whole (a folder, a device).
    case notReadable

    /// The cause in words.
    public var text: String {
        switch self {
        case .call(let error): error.reason
        case .replace(let error): error.reason
        case .error(let error): "\(error)"
        case .errno(let errno): errorText(errno)
        case .notReadable: "not a readable file"
        }
    }
}
