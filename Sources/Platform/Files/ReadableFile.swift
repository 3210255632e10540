import Glibc
import SystemPackage

/// A file open for reading front to back in chunks, or at given offsets: what `fences import`
/// reads a country's extract through, never holding it whole. Errors are values; the descriptor is
/// closed when the object goes away.
/// The corresponding C functions are `open`, `fstat`, `read`, `pread`, `lseek` and `close`.
public final class ReadableFile {
    public let path: String
    private let descriptor: Int32

    public enum Failure: Error, Equatable {
        case failed(FileCallError)
        case isDirectory
    }

    /// Opens `path` read-only; a folder is refused. The corresponding C functions are `open`
    /// (EINTR retried) and `fstat`.
    public init(path: String) throws(Failure) {
        self.path = path
        let opened: Int32
        switch openRetrying(path, O_RDONLY | O_CLOEXEC) {
        case .success(let value): opened = value
        case .failure(let errno): throw .failed(FileCallError(call: "open", path: path, errno: errno))
        }
        if (try? FileStatus.of(FileDescriptor(rawValue: opened)))?.kind == .directory {
            _ = Glibc.close(opened)
            throw .isDirectory
        }
        descriptor = opened
    }

    deinit { _ = Glibc.close(descriptor) }

    /// Reads up to `count` bytes to `destination` from the current offset; 0 at the end of the
    /// file. The corresponding C function is `read`, EINTR retried.
    public func read(into destination: UnsafeMutableRawPointer, count: Int) throws(FileCallError) -> Int {
        switch retryingInterrupts({ Glibc.read(descriptor, destination, count) }) {
        case .success(let n): return n
        case .failure(let errno): throw FileCallError(call: "read", path: path, errno: errno)
        }
    }

    /// Up to `count` bytes from `position`, without moving the current offset; fewer only at the
    /// end of the file. The corresponding C function is `pread`, EINTR retried.
    public func read(at position: Int, into destination: UnsafeMutableRawPointer, count: Int) throws(FileCallError)
        -> Int
    {
        var filled = 0
        while filled < count {
            let result = retryingInterrupts {
                pread(descriptor, destination + filled, count - filled, off_t(position + filled))
            }
            switch result {
            case .success(0): return filled
            case .success(let n): filled += n
            case .failure(let errno): throw FileCallError(call: "pread", path: path, errno: errno)
            }
        }
        return filled
    }

    /// Goes back to the first byte. The corresponding C function is `lseek`.
    public func rewind() {
        _ = lseek(descriptor, 0, SEEK_SET)
    }

    /// The file's size in bytes now (0 when it cannot be told). The corresponding C function is
    /// `fstat`.
    public var size: Int {
        (try? FileStatus.of(FileDescriptor(rawValue: descriptor))).map { Int($0.size) } ?? 0
    }
}
