import Glibc
import SystemPackage

/// Every byte of the file at `path` (a regular file, a pipe, `/proc`), read to its end or to
/// `limit` bytes, EINTR retried: the one reader of a small file whole (time zones, remembered
/// rates, `/proc` files). `call` of the error says whether the `open` or a `read` failed.
/// The corresponding C functions are `open`, `read` and `close`.
public func readWholeFile(_ path: String, limit: Int = .max) throws(FileCallError) -> [UInt8] {
    let descriptor: Int32
    switch openRetrying(path, O_RDONLY | O_CLOEXEC) {
    case .success(let value): descriptor = value
    case .failure(let errno): throw FileCallError(call: "open", path: path, errno: errno)
    }
    defer { _ = Glibc.close(descriptor) }
    return try readToEnd(descriptor, path: path, limit: limit)
}

/// Writes `bytes` as the whole of the file at `path`, created (mode 0644 less the umask) or
/// truncated, in place: the writer of a file the user reads whole after the command (a report and
/// its exports), which may be a device such as `/dev/stdout`. `call` of the error says whether the
/// `open`, a `write` or the `close` failed. The corresponding C functions are `open`, `write` and
/// `close`.
public func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws(FileCallError) {
    let descriptor: Int32
    switch openRetrying(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) {
    case .success(let value): descriptor = value
    case .failure(let errno): throw FileCallError(call: "open", path: path, errno: errno)
    }
    if let errno = bytes.withUnsafeBytes({ writeAll(descriptor, $0) }) {
        _ = Glibc.close(descriptor)
        throw FileCallError(call: "write", path: path, errno: errno)
    }
    guard Glibc.close(descriptor) == 0 else { throw FileCallError.last("close", path) }
}

/// What is left to read on `descriptor`, to its end or to `limit` bytes (a chunk may go past it).
/// The corresponding C function is `read`, EINTR retried.
func readToEnd(_ descriptor: Int32, path: String, limit: Int = .max) throws(FileCallError) -> [UInt8] {
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while data.count < limit {
        let result = chunk.withUnsafeMutableBytes { buffer in
            retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
        }
        switch result {
        case .success(0): return data
        case .success(let count): data.append(contentsOf: chunk[0..<count])
        case .failure(let errno): throw FileCallError(call: "read", path: path, errno: errno)
        }
    }
    return data
}

/// The first bytes of a file and what it is, read without blocking and without the file becoming
/// the controlling terminal, whatever it is (a FIFO, a serial device): what the sniffers read.
public struct FileHead: Sendable {
    public var status: FileStatus
    public var bytes: [UInt8]

    /// Up to `count` bytes from the start of `path` (fewer at its end, or when a pipe or device has
    /// no more now). The corresponding C functions are `open` (`O_NONBLOCK | O_NOCTTY`), `fstat`
    /// and `read`, EINTR retried.
    public static func read(_ path: String, count: Int) throws(FileCallError) -> FileHead {
        let descriptor: Int32
        switch openRetrying(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) {
        case .success(let value): descriptor = value
        case .failure(let errno): throw FileCallError(call: "open", path: path, errno: errno)
        }
        defer { _ = Glibc.close(descriptor) }
        let status = try FileStatus.of(FileDescriptor(rawValue: descriptor))
        var head = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = head.withUnsafeMutableBytes { buffer in
                retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled) }
            }
            switch result {
            case .success(0): return FileHead(status: status, bytes: Array(head[..<filled]))
            case .success(let got): filled += got
            case .failure(let errno):
                if filled > 0 { return FileHead(status: status, bytes: Array(head[..<filled])) }
                throw FileCallError(call: "read", path: path, errno: errno)
            }
        }
        return FileHead(status: status, bytes: head)
    }
}
