import CZlib

/// zlib's inflate (Debian's libz): a PBF blob's zlib stream, or a zip entry's raw deflate.
enum Inflate {
    /// Inflates `input` into exactly `expected` bytes at `output`; `raw` for a deflate stream
    /// without zlib's header (zip), else a zlib stream (PBF).
    static func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, expected: Int, raw: Bool
    ) throws(InflateFailure) {
        var stream = z_stream()
        let started = inflateInit2_(
            &stream, raw ? -MAX_WBITS : MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw .cannotStart(status: started) }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(expected)
        let status = CZlib.inflate(&stream, Z_FINISH)
        guard status == Z_STREAM_END else {
            if status == Z_BUF_ERROR { throw .cutShort }
            throw .refused(status: status, zlibSays: stream.msg.map { String(cString: $0) })
        }
        guard Int(stream.total_out) == expected else {
            throw .size(Int(stream.total_out), declared: expected)
        }
    }
}

/// Why zlib could not inflate a stream, as a value.
public enum InflateFailure: Error, Sendable, Equatable {
    /// `inflateInit2` failed with this status.
    case cannotStart(status: Int32)
    /// The compressed data is cut short, or inflates to more than declared.
    case cutShort
    /// `inflate` refused the data with this status (and zlib's own words for it, when it gives some).
    case refused(status: Int32, zlibSays: String?)
    /// The data inflated to `Int` bytes, not the number declared.
    case size(Int, declared: Int)

    var text: String {
        switch self {
        case .cannotStart(let status): "zlib cannot start (\(status))"
        case .cutShort: "the compressed data is cut short or larger than declared"
        case .refused(let status, let said): said ?? "status \(status)"
        case .size(let size, let declared): "inflated to \(size) bytes, not the \(declared) declared"
        }
    }
}
