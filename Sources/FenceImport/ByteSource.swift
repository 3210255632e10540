#if canImport(Glibc)
    import Glibc
#endif

/// A file read front to back in chunks, so that a country's extract never sits in memory whole.
/// The corresponding C functions are `open`, `fstat`, `read` and `close`.
final class ByteSource {
    let path: String
    private let fd: Int32
    /// Bytes handed out so far (the offset of the next chunk in the file).
    private(set) var offset = 0

    init(path: String) throws(ImportError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ImportError(file: path, problem: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(fd)
            throw ImportError(file: path, problem: "is a directory, not a file to import")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Reads up to `count` bytes to `destination`; 0 at the end of the file.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws(ImportError) -> Int {
        while true {
            let n = Glibc.read(fd, destination, count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                throw ImportError(
                    file: path, place: "byte \(offset)", problem: "cannot read: \(String(cString: strerror(errno)))")
            }
            offset += n
            return n
        }
    }

    /// Fills `destination` whole, or throws naming `what` (at `place`) when the file ends first;
    /// false when the file ended before the first byte.
    func readExactly(
        into destination: UnsafeMutableRawPointer, count: Int, what: String, place: String? = nil
    ) throws(ImportError) -> Bool {
        var filled = 0
        while filled < count {
            let n = try read(into: destination + filled, count: count - filled)
            if n == 0 {
                if filled == 0 { return false }
                throw ImportError(
                    file: path, place: place ?? "byte \(offset)",
                    problem: "the file ends inside \(what) (is it truncated?)")
            }
            filled += n
        }
        return true
    }

    /// Starts again from the first byte (for a second pass).
    func rewind() {
        _ = lseek(fd, 0, SEEK_SET)
        offset = 0
    }
}
