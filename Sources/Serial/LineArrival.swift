/// How much of the line in progress is still on the wire, so that the reader can sleep through it
/// instead of waking for every few bytes a UART hands over (docs/performance.md, "Live cost").
///
/// A receiver sends the same sentences every epoch at nearly the same length, so the length a
/// sentence had last time (by its first six bytes, `$GPRMC`) foretells when the one now arriving
/// ends. Nothing can be done with half a line, so sleeping until a few bytes before that end costs
/// no latency; a line that turns out shorter than foretold is read late by at most the shortfall.
/// At the end of a line, the kind that came straight after it last epoch (RMC, then VTG, GGA, ...)
/// is already on its way, and is slept through the same way.
struct LineArrival {
    /// The bytes of the line in progress counted so far, and its first six (the key).
    private var count = 0
    private var key: UInt64 = 0
    /// The length of the last complete line per key (a receiver sends a handful of kinds).
    private var lengths: [UInt64: Int] = [:]
    /// The kind that came straight after each kind last time (no pause on the wire between them):
    /// at the end of a line, the next one is then already on its way, its length known.
    private var followers: [UInt64: UInt64] = [:]
    /// The line that ended last, when the read that ended it returned, and whether it came at the
    /// pace of the wire (not all at once, as a program writing a pseudo-terminal hands it over).
    private var ended: (key: UInt64, time: Double, paced: Bool)?
    /// When the read that brought the first byte of the line in progress returned.
    private var lineStart = 0.0
    /// The line rate in bytes per second.
    let bytesPerSecond: Double

    init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// Lines longer than this are not NMEA (82 bytes at most) and are not remembered.
    static let longestLine = 256
    /// Bytes of the foretold length left unslept, for a sentence a field shorter than last time.
    static let slack = 4
    /// A line that began within this many seconds of the last one's end came straight after it.
    static let straightAfter = 0.005

    /// Follows the bytes of one read, returned at `time` (seconds on the monotonic clock).
    mutating func observe(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if count < Self.longestLine, count >= 6 {
                    lengths[key] = count + 1
                    // At least half its time on the wire: bytes that come all at once foretell
                    // nothing about when the next line will be there.
                    let paced = time - lineStart >= Double(count + 1) / bytesPerSecond / 2
                    ended = (key, time, paced)
                } else {
                    ended = nil
                }
                count = 0
                key = 0
                continue
            }
            if count == 0 { lineStart = time }
            if count < 6 { key = key << 8 | UInt64(byte) }
            count += 1
            // Learnt from the timing of a read that did not follow a sleep on the strength of
            // it (after one, the line came as foretold, however late the read that found it).
            if count == 6, let previous = ended {
                if followers[previous.key] != key {
                    followers[previous.key] = time - previous.time <= Self.straightAfter ? key : nil
                }
                // A line that came straight after began on the wire when the last one ended.
                if followers[previous.key] == key { lineStart = min(lineStart, previous.time) }
                ended = nil
            }
        }
    }

    /// The bytes the line in progress (or, at a line's end, the one that came straight after it
    /// last time) should still need beyond the slack; nil when that is not known.
    var bytesStillComing: Int? {
        let length: Int?
        let seen: Int
        if count == 0, let previous = ended, previous.paced, let next = followers[previous.key] {
            (length, seen) = (lengths[next], 0)
        } else if count >= 6 {
            (length, seen) = (lengths[key], count)
        } else {
            return nil
        }
        guard let length else { return nil }
        let left = length - seen - Self.slack
        return left > 0 ? left : nil
    }

    /// How long to sleep before the next read (nil: read as soon as bytes come).
    /// Sleeps shorter than a millisecond save nothing, longer ones are capped so that `stop()` is
    /// seen promptly.
    var sleep: Double? {
        guard let left = bytesStillComing, bytesPerSecond > 0 else { return nil }
        let seconds = Double(left) / bytesPerSecond
        return seconds >= 0.001 ? min(seconds, 0.1) : nil
    }
}
