import CZlib

/// zlib's inflate (Debian's libz): a PBF blob's zlib stream, or a zip entry's raw deflate.
enum Inflate {
    struct Failure: Error {
        let reason: String
    }

    /// Inflates `input` into exactly `expected` bytes at `output`; `raw` for a deflate stream
    /// without zlib's header (zip), else a zlib stream (PBF).
    static func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer, expected: Int, raw: Bool
    ) throws(Failure) {
        var stream = z_stream()
        let started = inflateInit2_(
            &stream, raw ? -MAX_WBITS : MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard started == Z_OK else { throw Failure(reason: "zlib cannot start (\(started))") }
        defer { inflateEnd(&stream) }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        stream.next_out = output.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(expected)
        let status = CZlib.inflate(&stream, Z_FINISH)
        guard status == Z_STREAM_END else {
            let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
            throw Failure(
                reason: status == Z_BUF_ERROR ? "the compressed data is cut short or larger than declared" : message)
        }
        guard Int(stream.total_out) == expected else {
            throw Failure(reason: "inflated to \(stream.total_out) bytes, not the \(expected) declared")
        }
    }
}
