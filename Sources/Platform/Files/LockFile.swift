import Glibc
import SystemPackage

/// A file held with an exclusive `flock` for as long as this object lives (the kernel releases it
/// when the process ends, however it ends), its content the holder's note to whoever finds it
/// taken. The corresponding C functions are `open`, `flock`, `pread`, `ftruncate`, `pwrite` and
/// `close`.
public final class LockFile: @unchecked Sendable {
    public let path: String
    private let descriptor: Int32

    /// Why the lock was not taken.
    public enum Refusal: Error {
        /// The file could not be opened or made.
        case failed(FileCallError)
        /// Another holder has it; the first bytes of what it wrote there.
        case held(note: [UInt8])
    }

    /// Opens (or makes, mode 0600, never through a symlink) `path` and takes its lock without
    /// waiting. The corresponding C functions are `open` and `flock(LOCK_EX | LOCK_NB)`, EINTR
    /// retried.
    public init(claiming path: String) throws(Refusal) {
        let descriptor: Int32
        switch openRetrying(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) {
        case .success(let value): descriptor = value
        case .failure(let errno): throw .failed(FileCallError(call: "open", path: path, errno: errno))
        }
        guard case .success = retryingInterrupts({ flock(descriptor, LOCK_EX | LOCK_NB) }) else {
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            _ = Glibc.close(descriptor)
            throw .held(note: count > 0 ? Array(bytes[..<count]) : [])
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Replaces the file's content with `note`, best effort. The corresponding C functions are
    /// `ftruncate` and `pwrite`.
    public func write(note: [UInt8]) {
        _ = ftruncate(descriptor, 0)
        _ = note.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }
}
