/// What the bytes heard at one rate say against it: whether they already prove it wrong, so that
/// autobaud can move on at once instead of waiting out its window (docs/hardware.md).
///
/// NMEA is printable ASCII in lines of at most 82 characters, each starting with `$` (or `!`) and
/// ending in CR LF. A UART at the wrong rate hands over framing errors (which Linux delivers as NUL
/// bytes), bytes with the high bit set and stray control bytes, and rarely a start character. So
/// either of these proves a rate wrong:
/// - `noiseLimit` bytes that no NMEA line holds (NUL, a control byte other than CR and LF, a byte
///   of 0x7F or above);
/// - a line's worth of bytes in a row (`lineLimit`) without a start character.
///
/// A u-blox receiver may interleave binary UBX frames, which are full of such bytes: once a frame
/// with a good checksum has arrived at a rate, or a sentence with a good checksum, the bytes prove
/// nothing more against it (the caller says so with `provenRight`).
struct WrongRateEvidence {
    enum Proof: Equatable {
        /// Bytes no NMEA line holds.
        case noise
        /// A line's worth of bytes without `$` or `!`.
        case noSentenceStart
    }

    /// Four bytes no NMEA line holds. A wrong rate gives that many from one burst of the
    /// receiver's: even three sentences sent at 230400 and read at 4800, where the UART sees only
    /// five bytes, give four framing errors. A right rate gives none, bar a byte garbled by joining
    /// the line in the middle of one.
    static let noiseLimit = 4
    /// The longest line the reader accepts (`Framer.maximumLength`, over the standard's 82) and
    /// its CR LF: NMEA has a start character at least this often.
    static let lineLimit = 122

    private(set) var noise = 0
    /// Bytes since the last start character (or since listening began).
    private(set) var sinceStart = 0
    private(set) var longestWithoutStart = 0

    mutating func observe(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == 0x24 || byte == 0x21 {
                sinceStart = 0
                continue
            }
            sinceStart += 1
            longestWithoutStart = max(longestWithoutStart, sinceStart)
            if byte >= 0x7F || (byte < 0x20 && byte != 0x0D && byte != 0x0A) { noise += 1 }
        }
    }

    /// The proof against the rate, if the bytes so far give one. `provenRight`: a checksummed
    /// sentence or a UBX frame with a good checksum has arrived at this rate.
    func proof(provenRight: Bool) -> Proof? {
        if provenRight { return nil }
        if noise >= Self.noiseLimit { return .noise }
        if longestWithoutStart >= Self.lineLimit { return .noSentenceStart }
        return nil
    }
}
