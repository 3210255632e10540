#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory (or read, when it cannot be mapped), for the loaders.
/// The pages are dropped again when the loader is done with them.
final class FileBytes {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// Whether the bytes are a read-only file mapping (pages can be dropped and re-read).
    let mapped: Bool

    init(path: String) throws(FenceLoadError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw FenceLoadError(file: path, problem: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            throw FenceLoadError(file: path, problem: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            throw FenceLoadError(file: path, problem: "is a directory, not a fence file")
        }
        let size = Int(st.st_size)
        if (st.st_mode & S_IFMT) == S_IFREG, size > 0,
            let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED
        {
            _ = madvise(p, size, MADV_SEQUENTIAL)
            base = UnsafePointer(p.assumingMemoryBound(to: UInt8.self))
            count = size
            mapped = true
            return
        }
        // pipes, empty files, or no mmap: read it all
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FenceLoadError(file: path, problem: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            data.append(contentsOf: chunk[0..<n])
        }
        let p = UnsafeMutablePointer<UInt8>.allocate(capacity: max(data.count, 1))
        p.initialize(from: data, count: data.count)
        base = UnsafePointer(p)
        count = data.count
        mapped = false
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            UnsafeMutablePointer(mutating: base).deallocate()
        }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}
