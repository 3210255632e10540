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
    /// The line that ended last and when the read that ended it returned.
    private var ended: (key: UInt64, time: Double)?

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
                    ended = (key, time)
                } else {
                    ended = nil
                }
                count = 0
                key = 0
                continue
            }
            if count < 6 { key = key << 8 | UInt64(byte) }
            count += 1
            // Learnt from the timing of a read that did not follow a sleep on the strength of
            // it (after one, the line came as foretold, however late the read that found it).
            if count == 6, let previous = ended {
                if followers[previous.key] != key {
                    followers[previous.key] = time - previous.time <= Self.straightAfter ? key : nil
                }
                ended = nil
            }
        }
    }

    /// The bytes the line in progress (or, at a line's end, the one that came straight after it
    /// last time) should still need beyond the slack; nil when that is not known.
    var bytesStillComing: Int? {
        let length: Int?
        let seen: Int
        if count == 0, let previous = ended, let next = followers[previous.key] {
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

    /// How long to sleep before the next read at `bytesPerSecond` (nil: read as soon as bytes come).
    /// Sleeps shorter than a millisecond save nothing, longer ones are capped so that `stop()` is
    /// seen promptly.
    func sleep(bytesPerSecond: Double) -> Double? {
        guard let left = bytesStillComing, bytesPerSecond > 0 else { return nil }
        let seconds = Double(left) / bytesPerSecond
        return seconds >= 0.001 ? min(seconds, 0.1) : nil
    }
}
