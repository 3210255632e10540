/// Protocol Buffers' wire format over bytes in memory, the little of it OSM's PBF uses: varints,
/// zigzag numbers, length-delimited fields and packed arrays.
struct Protobuf {
    struct Malformed: Error {}

    private var cursor: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>

    init(_ bytes: UnsafeRawBufferPointer) {
        let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(bitPattern: 1)!
        cursor = base
        end = base + bytes.count
    }

    var atEnd: Bool { cursor >= end }

    /// The next field's number and wire type, nil at the end.
    mutating func field() throws(Malformed) -> (number: Int, wire: Int)? {
        guard cursor < end else { return nil }
        let key = try varint()
        return (Int(key >> 3), Int(key & 7))
    }

    @inline(__always)
    mutating func varint() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while cursor < end {
            let byte = cursor.pointee
            cursor += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            if shift > 63 { throw Malformed() }
        }
        throw Malformed()
    }

    @inline(__always)
    mutating func signed() throws(Malformed) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A length-delimited field's bytes.
    mutating func bytes() throws(Malformed) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(end - cursor) else { throw Malformed() }
        let start = cursor
        cursor += Int(length)
        return UnsafeRawBufferPointer(start: start, count: Int(length))
    }

    mutating func skip(wire: Int) throws(Malformed) {
        switch wire {
        case 0: _ = try varint()
        case 1: try advance(8)
        case 2: _ = try bytes()
        case 5: try advance(4)
        default: throw Malformed()
        }
    }

    private mutating func advance(_ count: Int) throws(Malformed) {
        guard count <= end - cursor else { throw Malformed() }
        cursor += count
    }
}
