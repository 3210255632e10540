import Glibc
import SystemPackage

/// A whole file in memory, read-only: mapped when it is a regular file that is not empty (its
/// pages can then be dropped and read again from the file), else read to its end (a pipe, an empty
/// file, a file that cannot be mapped). What the fence loaders read a fence file through.
/// The corresponding C functions are `open`, `fstat`, `mmap`, `madvise(MADV_SEQUENTIAL)`, `read`
/// and, when it goes away, `munmap`.
public final class MappedFile {
    public enum Failure: Error, Equatable {
        /// `open`, `fstat` or `read` failed.
        case failed(FileCallError)
        case isDirectory
    }

    public let base: UnsafePointer<UInt8>
    public let count: Int
    /// Whether the bytes are a read-only file mapping (pages can be dropped and re-read).
    public let mapped: Bool

    public init(path: String) throws(Failure) {
        let descriptor: Int32
        switch openRetrying(path, O_RDONLY | O_CLOEXEC) {
        case .success(let value): descriptor = value
        case .failure(let errno): throw .failed(FileCallError(call: "open", path: path, errno: errno))
        }
        defer { _ = Glibc.close(descriptor) }
        let status: FileStatus
        do {
            status = try FileStatus.of(FileDescriptor(rawValue: descriptor))
        } catch {
            throw .failed(error)
        }
        if status.kind == .directory { throw .isDirectory }
        let size = Int(status.size)
        if status.kind == .regular, size > 0, let pages = Self.map(descriptor, size) {
            base = UnsafePointer(pages.assumingMemoryBound(to: UInt8.self))
            count = size
            mapped = true
            return
        }
        let data: [UInt8]
        do {
            data = try readToEnd(descriptor, path: path)
        } catch {
            throw .failed(error)
        }
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(data.count, 1))
        copy.initialize(from: data, count: data.count)
        base = UnsafePointer(copy)
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

    public var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// `size` bytes of `descriptor` mapped read-only and marked for reading in order; nil when the
    /// kernel refuses. The corresponding C functions are `mmap` and `madvise(MADV_SEQUENTIAL)`.
    static func map(_ descriptor: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let pages = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), pages != MAP_FAILED else {
            return nil
        }
        _ = madvise(pages, size, MADV_SEQUENTIAL)
        return pages
    }

    /// Hands the regular, non-empty file open on `descriptor` to `body` mapped, in its whole;
    /// false (and `body` not called) when it is not one or cannot be mapped, for the caller to read
    /// it instead. `body` may drop the pages it is done with (`dropPages`).
    /// The corresponding C functions are `fstat`, `mmap`, `madvise` and `munmap`.
    public static func withMapping(
        _ descriptor: FileDescriptor, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Bool {
        guard let status = try? FileStatus.of(descriptor), status.kind == .regular, status.size > 0,
            let pages = map(descriptor.rawValue, Int(status.size))
        else { return false }
        let size = Int(status.size)
        defer { munmap(pages, size) }
        try body(UnsafeRawBufferPointer(start: pages, count: size))
        return true
    }
}

/// Gives back the pages of a file mapping from `start` for `count` bytes: the kernel reads them
/// from the file again if they are touched. A file of gigabytes is then never all resident.
/// The corresponding C function is `madvise(MADV_DONTNEED)`.
public func dropMappedPages(_ start: UnsafeRawPointer, count: Int) {
    _ = madvise(UnsafeMutableRawPointer(mutating: start), count, MADV_DONTNEED)
}

/// Asks for transparent huge pages over `count` bytes from `start` (2 MB-aligned runs of a large
/// array). The corresponding C function is `madvise(MADV_HUGEPAGE)`.
public func adviseHugePages(_ start: UnsafeMutableRawPointer, count: Int) {
    _ = madvise(start, count, MADV_HUGEPAGE)
}

/// `size` bytes aligned to `alignment` (freed with `free`), nil when there is no such memory.
/// The corresponding C function is `posix_memalign`.
public func allocateAligned(_ size: Int, alignment: Int) -> UnsafeMutableRawPointer? {
    var pointer: UnsafeMutableRawPointer?
    guard posix_memalign(&pointer, alignment, size) == 0 else { return nil }
    return pointer
}
