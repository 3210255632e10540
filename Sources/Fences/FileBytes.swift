import Platform

/// A whole file mapped read-only into memory (or read, when it cannot be mapped), for the loaders:
/// Platform's `MappedFile`, its errors said as a fence file's. The pages are dropped again when
/// the loader is done with them.
final class FileBytes {
    let file: MappedFile
    var base: UnsafePointer<UInt8> { file.base }
    var count: Int { file.count }
    /// Whether the bytes are a read-only file mapping (pages can be dropped and re-read).
    var mapped: Bool { file.mapped }

    init(path: String) throws(FenceLoadError) {
        do {
            file = try MappedFile(path: path)
        } catch {
            switch error {
            case .isDirectory: throw FenceLoadError(file: path, problem: .isDirectory)
            case .failed(let failure):
                throw FenceLoadError(file: path, problem: .unreadable(failure))
            }
        }
    }

    var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }
}
