/// How much of the line in progress is still on the wire, so that the reader can sleep through it
/// instead of waking for every few bytes a UART hands over (docs/performance.md, "Live cost").
///
/// A receiver sends the same sentences every epoch at nearly the same length, so the length a
/// sentence had last time (by its first six bytes, `$GPRMC`) foretells when the one now arriving
/// ends. Nothing can be done with half a line, so sleeping until a few bytes before that end costs
/// no latency; a line that turns out shorter than foretold is read late by at most the shortfall.
/// Only while lines come at the pace of the wire: half a line a program wrote all at once (or the
/// kernel handed over in two pieces) has its rest there already.
struct LineArrival {
    /// The bytes of the line in progress counted so far, and its first six (the key).
    private var count = 0
    private var key: UInt64 = 0
    /// The length of the last complete line per key (a receiver sends a handful of kinds).
    private var lengths: [UInt64: Int] = [:]
    /// Whether the last complete line came at the pace of the wire.
    private var lastLinePaced = false
    /// When the read that brought the first byte of the line in progress returned.
    private var lineStart = 0.0
    /// The line rate in bytes per second.
    let bytesPerSecond: Double

    init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

    /// Lines longer than this are not NMEA (82 bytes at most) and are not remembered.
    static let longestLine = 256
    /// Bytes of the foretold length left unslept, for a sentence a field shorter than last time.
    static let slack = 4

    /// Follows the bytes of one read, returned at `time` (seconds on the monotonic clock).
    mutating func observe(_ bytes: UnsafeRawBufferPointer, at time: Double) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if count < Self.longestLine, count >= 6 {
                    lengths[key] = count + 1
                    // At least half its time on the wire.
                    lastLinePaced = time - lineStart >= Double(count + 1) / bytesPerSecond / 2
                }
                count = 0
                key = 0
                continue
            }
            if count == 0 { lineStart = time }
            if count < 6 { key = key << 8 | UInt64(byte) }
            count += 1
        }
    }

    /// The bytes the line in progress should still need beyond the slack; nil when no line is in
    /// progress, its kind has not been seen whole yet, or lines do not come at the wire's pace.
    var bytesStillComing: Int? {
        guard count >= 6, lastLinePaced, let length = lengths[key] else { return nil }
        let left = length - count - Self.slack
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
