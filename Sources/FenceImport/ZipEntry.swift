/// The KML inside a KMZ: a zip archive whose `doc.kml` (or else its first `.kml` entry) is the
/// document. The central directory at the end of the file says where each entry is; the entry is
/// stored or deflated (zlib's raw inflate). Zip64 archives and other methods are refused.
enum ZipEntry {
    static let endOfDirectory: UInt32 = 0x0605_4B50
    static let directoryEntry: UInt32 = 0x0201_4B50
    static let localHeader: UInt32 = 0x0403_4B50
    /// A KML larger than this is not a KMZ anyone draws by hand.
    static let largestEntry = 1 << 30

    static func kml(in source: ByteSource) throws(ImportError) -> (name: String, bytes: [UInt8]) {
        let path = source.path
        func broken(_ problem: KMZProblem) -> ImportError {
            ImportError(file: path, problem: .kmz(problem))
        }
        let size = source.size
        let tailLength = min(size, 65_536 + 22)
        let tail = try source.bytes(at: size - tailLength, count: tailLength)
        guard tailLength >= 22,
            let end = stride(from: tailLength - 22, through: 0, by: -1).first(where: {
                uint32(tail, $0) == endOfDirectory
            })
        else { throw broken(.noEndOfDirectory) }
        let entries = Int(uint16(tail, end + 10))
        let directorySize = Int(uint32(tail, end + 12))
        let directoryOffset = Int(uint32(tail, end + 16))
        guard directoryOffset != 0xFFFF_FFFF, directoryOffset + directorySize <= size else {
            throw broken(.directoryOutside)
        }
        let directory = try source.bytes(at: directoryOffset, count: directorySize)
        var position = 0
        var chosen: (name: String, method: UInt16, compressed: Int, size: Int, local: Int)?
        for _ in 0..<entries {
            guard position + 46 <= directory.count, uint32(directory, position) == directoryEntry else {
                throw broken(.directoryDamaged)
            }
            let method = uint16(directory, position + 10)
            let compressed = Int(uint32(directory, position + 20))
            let uncompressed = Int(uint32(directory, position + 24))
            let nameLength = Int(uint16(directory, position + 28))
            let extraLength = Int(uint16(directory, position + 30))
            let commentLength = Int(uint16(directory, position + 32))
            let local = Int(uint32(directory, position + 42))
            guard position + 46 + nameLength <= directory.count else { throw broken(.directoryDamaged) }
            let name = String(decoding: directory[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self)
            position += 46 + nameLength + extraLength + commentLength
            let isKML = name.lowercased().hasSuffix(".kml")
            if name == "doc.kml" || (chosen == nil && isKML) {
                chosen = (name, method, compressed, uncompressed, local)
            }
        }
        guard let entry = chosen else { throw broken(.noKML) }
        guard entry.size <= largestEntry, entry.compressed <= size else {
            throw broken(.entryTooLarge(entry: entry.name))
        }
        let header = try source.bytes(at: entry.local, count: 30)
        guard uint32(header, 0) == localHeader else { throw broken(.entryHeaderDamaged(entry: entry.name)) }
        let dataStart = entry.local + 30 + Int(uint16(header, 26)) + Int(uint16(header, 28))
        let data = try source.bytes(at: dataStart, count: entry.compressed)
        switch entry.method {
        case 0:
            return (entry.name, data)
        case 8:
            let output = UnsafeMutableRawBufferPointer.allocate(byteCount: max(entry.size, 1), alignment: 1)
            defer { output.deallocate() }
            let input = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
            defer { input.deallocate() }
            input.copyBytes(from: data)
            do throws(InflateFailure) {
                try Inflate.inflate(
                    UnsafeRawBufferPointer(start: input.baseAddress, count: data.count), into: output.baseAddress!,
                    expected: entry.size, raw: true)
            } catch {
                throw broken(.entryNotInflated(entry: entry.name, error))
            }
            return (entry.name, Array(UnsafeRawBufferPointer(start: output.baseAddress, count: entry.size)))
        default:
            throw broken(.entryMethod(entry: entry.name, method: entry.method))
        }
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(uint16(bytes, at)) | UInt32(uint16(bytes, at + 2)) << 16
    }
}
