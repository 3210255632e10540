import Platform

/// A file read front to back in chunks (Platform's `ReadableFile`), so that a country's extract
/// never sits in memory whole; or bytes already in memory (a KMZ's inflated entry) read the same
/// way.
final class ByteSource {
    let path: String
    /// The entry of an archive these bytes are (`doc.kml`), named in a place in them; nil for a file.
    let entry: String?
    private let file: ReadableFile?
    private let memory: [UInt8]?
    /// Bytes handed out so far (the offset of the next chunk in the file).
    private(set) var offset = 0

    init(path: String) throws(ImportError) {
        self.path = path
        entry = nil
        memory = nil
        do {
            file = try ReadableFile(path: path)
        } catch {
            switch error {
            case .isDirectory: throw ImportError(file: path, problem: .isDirectory)
            case .failed(let failure): throw ImportError(file: path, problem: .unreadable(failure))
            }
        }
    }

    /// `bytes`, named `entry` inside the file at `path`.
    init(bytes: [UInt8], path: String, entry: String) {
        self.path = path
        self.entry = entry
        memory = bytes
        file = nil
    }

    /// The same bytes from their start, for a second reader (an error message's line count).
    func reopened() -> ByteSource? {
        if let memory, let entry { return ByteSource(bytes: memory, path: path, entry: entry) }
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
        do {
            let n = try file!.read(into: destination, count: count)
            offset += n
            return n
        } catch {
            throw ImportError(file: path, place: .byte(offset), problem: .unreadable(error))
        }
    }

    /// Fills `destination` whole, or throws naming `what` (at `place`) when the file ends first;
    /// false when the file ended before the first byte.
    func readExactly(
        into destination: UnsafeMutableRawPointer, count: Int, what: FilePart, place: ImportPlace? = nil
    ) throws(ImportError) -> Bool {
        var filled = 0
        while filled < count {
            let n = try read(into: destination + filled, count: count - filled)
            if n == 0 {
                if filled == 0 { return false }
                throw ImportError(file: path, place: place ?? .byte(offset), problem: .endsInside(what))
            }
            filled += n
        }
        return true
    }

    /// Starts again from the first byte (for a second pass).
    func rewind() {
        file?.rewind()
        offset = 0
    }

    /// The file's size in bytes (memory: the bytes').
    var size: Int {
        if let memory { return memory.count }
        return file?.size ?? 0
    }

    /// `count` bytes from `position` (for a zip's directory, read from the end).
    func bytes(at position: Int, count: Int) throws(ImportError) -> [UInt8] {
        if let memory { return Array(memory[position..<min(position + count, memory.count)]) }
        if count == 0 { return [] }
        var out = [UInt8](repeating: 0, count: count)
        let filled =
            (try? out.withUnsafeMutableBytes { buffer throws(FileCallError) in
                try file!.read(at: position, into: buffer.baseAddress!, count: count)
            }) ?? 0
        guard filled == count else {
            throw ImportError(file: path, place: .byte(position + filled), problem: .endsEarly)
        }
        return out
    }
}
