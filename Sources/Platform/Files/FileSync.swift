import Glibc
import SystemPackage

/// Makes the data written to the file at `path` durable on storage (its size and content, not its
/// time stamps). `call` of the error says whether the `open` or the sync failed.
/// The corresponding C functions are `open`, `fdatasync` (EINTR retried) and `close`.
public func syncFileData(_ path: String) throws(FileCallError) {
    let descriptor: Int32
    switch openRetrying(path, O_RDONLY | O_CLOEXEC) {
    case .success(let value): descriptor = value
    case .failure(let errno): throw FileCallError(call: "open", path: path, errno: errno)
    }
    defer { _ = Glibc.close(descriptor) }
    if case .failure(let errno) = retryingInterrupts({ fdatasync(descriptor) }) {
        throw FileCallError(call: "fdatasync", path: path, errno: errno)
    }
}

/// Makes what was written through `descriptor` durable on storage, best effort.
/// The corresponding C function is `fsync`, EINTR retried.
public func syncFile(_ descriptor: FileDescriptor) {
    _ = retryingInterrupts { fsync(descriptor.rawValue) }
}
