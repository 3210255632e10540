#if canImport(Glibc)
    import Glibc
#endif

/// A file read front to back in chunks, so that a country's extract never sits in memory whole;
/// or bytes already in memory (a KMZ's inflated entry) read the same way.
/// The corresponding C functions are `open`, `fstat`, `read`, `lseek` and `close`.
final class ByteSource {
    let path: String
    /// Said before a place in this source: the entry of an archive (`doc.kml `), or nothing.
    let placePrefix: String
    private let fd: Int32
    private let memory: [UInt8]?
    /// Bytes handed out so far (the offset of the next chunk in the file).
    private(set) var offset = 0

    init(path: String) throws(ImportError) {
        self.path = path
        placePrefix = ""
        memory = nil
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

    /// `bytes`, named `entry` inside the file at `path`.
    init(bytes: [UInt8], path: String, entry: String) {
        self.path = path
        placePrefix = entry + " "
        memory = bytes
        fd = -1
    }

    deinit { if fd >= 0 { close(fd) } }

    /// The same bytes from their start, for a second reader (an error message's line count).
    func reopened() -> ByteSource? {
        if let memory { return ByteSource(bytes: memory, path: path, entry: String(placePrefix.dropLast())) }
        return try? ByteSource(path: path)
    }

    /// Reads up to `count` bytes to `destination`; 0 at the end of the file.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws(ImportError) -> Int {
        if let memory {
            let n = min(count, memory.count - offset)
            memory.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + offset, byteCount: n) }
            offset += n
            return n
        }
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
        if fd >= 0 { _ = lseek(fd, 0, SEEK_SET) }
        offset = 0
    }

    /// The file's size in bytes (memory: the bytes'). The corresponding C function is `fstat`.
    var size: Int {
        if let memory { return memory.count }
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : 0
    }

    /// `count` bytes from `position` (for a zip's directory, read from the end).
    /// The corresponding C function is `pread`.
    func bytes(at position: Int, count: Int) throws(ImportError) -> [UInt8] {
        if let memory { return Array(memory[position..<min(position + count, memory.count)]) }
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = out.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + filled, count - filled, off_t(position + filled))
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw ImportError(
                    file: path, place: "byte \(position + filled)", problem: "the file ends early (is it truncated?)")
            }
            filled += n
        }
        return out
    }
}
