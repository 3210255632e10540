import Glibc
import SystemPackage

/// Opens the terminal (or any device) at `path` for writing, without making it this process's
/// controlling terminal: where the bell rings. The corresponding C function is `open`
/// (`O_WRONLY | O_NOCTTY | O_CLOEXEC`), EINTR retried.
public func openTerminalForWriting(_ path: String) throws(FileCallError) -> FileDescriptor {
    switch openRetrying(path, O_WRONLY | O_NOCTTY | O_CLOEXEC) {
    case .success(let descriptor): return FileDescriptor(rawValue: descriptor)
    case .failure(let errno): throw FileCallError(call: "open", path: path, errno: errno)
    }
}
