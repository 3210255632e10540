/// OSM PBF (`.osm.pbf`, the format of Geofabrik's extracts), read blob by blob: each blob is
/// inflated (zlib), its string table matched once against the keys the import looks at, and its
/// dense nodes, ways and relations decoded into the reused `OSMElement`. Only the blob being read
/// is in memory.
final class OSMPBFReader: OSMReader {
    let path: String
    private let source: ByteSource
    private let element = OSMElement()
    private var passes = 0
    private var compressed = ByteBuffer()
    private var inflated = ByteBuffer()
    private var header = ByteBuffer()

    /// The largest blob the format allows (its specification's limit).
    static let maximumBlob = 32 * 1024 * 1024
    static let maximumHeader = 64 * 1024
    static let readableFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    init(path: String) throws(ImportError) {
        self.path = path
        source = try ByteSource(path: path)
    }

    func read(_ kinds: OSMKinds, keys: OSMTagKeys, visit: (OSMElement) throws -> Void) throws {
        try eachBlock(keys: keys) { (block: inout PBFBlock) in try block.visit(kinds, into: element, visit: visit) }
    }

    func readLocations(_ note: (_ id: Int64, _ lat7: Int64, _ lon7: Int64) -> Void) throws {
        try eachBlock(keys: OSMTagKeys()) { (block: inout PBFBlock) in try block.locations(note) }
    }

    private func eachBlock(keys: OSMTagKeys, _ body: (inout PBFBlock) throws -> PBFBlock.Outcome) throws {
        if passes > 0 { source.rewind() }
        passes += 1
        var blob = 0
        var sawHeader = false
        while true {
            let offset = source.offset
            guard let (type, data) = try nextBlob(number: blob) else { break }
            let place = ImportPlace.blob(blob, byte: offset)
            do {
                if type == "OSMHeader" {
                    try checkHeader(data, place: place)
                    sawHeader = true
                } else if type == "OSMData" {
                    guard sawHeader else {
                        throw ImportError(file: path, place: place, problem: .pbf(.dataBeforeHeader))
                    }
                    var block = try PBFBlock(data, keys: keys)
                    if try body(&block) == .stop { return }
                }
            } catch is Protobuf.Malformed {
                throw ImportError(file: path, place: place, problem: .pbf(.blockUndecodable))
            }
            blob += 1
        }
        if !sawHeader { throw ImportError(file: path, problem: .pbf(.noHeaderBlob)) }
    }

    /// The next blob's type and inflated bytes; nil at the end of the file.
    private func nextBlob(number: Int) throws -> (String, UnsafeRawBufferPointer)? {
        let offset = source.offset
        let place = ImportPlace.blob(number, byte: offset)
        var length: UInt32 = 0
        guard
            try withUnsafeMutableBytes(
                of: &length,
                { try source.readExactly(into: $0.baseAddress!, count: 4, what: .blobLength, place: place) })
        else { return nil }
        let headerLength = Int(UInt32(bigEndian: length))
        guard headerLength > 0, headerLength <= Self.maximumHeader else {
            throw ImportError(file: path, place: place, problem: .pbf(.blobHeaderLength(bytes: headerLength)))
        }
        let headerBytes = header.reserve(headerLength)
        guard try source.readExactly(into: headerBytes, count: headerLength, what: .blobHeader, place: place) else {
            throw ImportError(file: path, place: place, problem: .endsInside(.blobHeader))
        }
        var type = ""
        var dataSize = -1
        do {
            var fields = Protobuf(UnsafeRawBufferPointer(start: headerBytes, count: headerLength))
            while let (number, wire) = try fields.field() {
                switch (number, wire) {
                case (1, 2): type = String(decoding: try fields.bytes(), as: UTF8.self)
                case (3, 0): dataSize = Int(try fields.varint())
                default: try fields.skip(wire: wire)
                }
            }
        } catch {
            throw ImportError(file: path, place: place, problem: .pbf(.blobHeaderUndecodable))
        }
        guard dataSize >= 0, dataSize <= Self.maximumBlob else {
            throw ImportError(file: path, place: place, problem: .pbf(.blobSize(bytes: dataSize)))
        }
        let blobBytes = compressed.reserve(dataSize)
        guard try source.readExactly(into: blobBytes, count: dataSize, what: .blobData, place: place) || dataSize == 0
        else {
            throw ImportError(file: path, place: place, problem: .endsBefore(.blobData))
        }
        return (type, try unpack(UnsafeRawBufferPointer(start: blobBytes, count: dataSize), place: place))
    }

    /// A Blob message's content: raw, or zlib inflated to its declared size.
    private func unpack(_ blob: UnsafeRawBufferPointer, place: ImportPlace) throws -> UnsafeRawBufferPointer {
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        var rawSize = -1
        var other: String?
        do {
            var fields = Protobuf(blob)
            while let (number, wire) = try fields.field() {
                switch (number, wire) {
                case (1, 2): raw = try fields.bytes()
                case (2, 0): rawSize = Int(try fields.varint())
                case (3, 2): zlib = try fields.bytes()
                case (4, 2): other = "lzma"
                case (6, 2): other = "lz4"
                case (7, 2): other = "zstd"
                default: try fields.skip(wire: wire)
                }
            }
        } catch {
            throw ImportError(file: path, place: place, problem: .pbf(.blobUndecodable))
        }
        if let raw { return raw }
        guard let zlib else {
            throw ImportError(file: path, place: place, problem: .pbf(.compression(method: other)))
        }
        guard rawSize >= 0, rawSize <= Self.maximumBlob else {
            throw ImportError(file: path, place: place, problem: .pbf(.inflatedSize(bytes: rawSize)))
        }
        let output = inflated.reserve(rawSize)
        do throws(InflateFailure) {
            try Inflate.inflate(zlib, into: output, expected: rawSize, raw: false)
        } catch {
            throw ImportError(file: path, place: place, problem: .pbf(.inflate(error)))
        }
        return UnsafeRawBufferPointer(start: output, count: rawSize)
    }

    private func checkHeader(_ data: UnsafeRawBufferPointer, place: ImportPlace) throws {
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            if number == 4, wire == 2 {
                let feature = String(decoding: try fields.bytes(), as: UTF8.self)
                guard Self.readableFeatures.contains(feature) else {
                    throw ImportError(file: path, place: place, problem: .pbf(.requiredFeature(name: feature)))
                }
            } else {
                try fields.skip(wire: wire)
            }
        }
    }
}

/// A reusable block of memory that grows to the largest size asked of it.
struct ByteBuffer {
    private var storage: UnsafeMutableRawPointer?
    private var capacity = 0

    mutating func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if count > capacity || storage == nil {
            storage?.deallocate()
            capacity = max(count, capacity * 2, 4096)
            storage = .allocate(byteCount: capacity, alignment: 16)
        }
        return storage!
    }
}
