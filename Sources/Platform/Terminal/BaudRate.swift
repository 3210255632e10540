import Glibc

/// A line speed that termios can set, in bits per second.
public struct BaudRate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let bitsPerSecond: Int

    /// Rates a GPS receiver may use, mapped to their termios constants.
    static let table: [(Int, Int32)] = [
        (1200, B1200), (2400, B2400), (4800, B4800), (9600, B9600), (19200, B19200), (38400, B38400),
        (57600, B57600), (115200, B115200), (230400, B230400), (460800, B460800), (921600, B921600),
    ]

    /// Nil for a rate termios has no constant for.
    public init?(_ bitsPerSecond: Int) {
        guard Self.table.contains(where: { $0.0 == bitsPerSecond }) else { return nil }
        self.bitsPerSecond = bitsPerSecond
    }

    /// The termios constant (`B9600`, ...).
    var speed: speed_t { speed_t(Self.table.first { $0.0 == bitsPerSecond }!.1) }

    /// The rate of a termios constant; nil for B0 (hang up) or one not in the table.
    init?(speed: speed_t) {
        guard let entry = Self.table.first(where: { speed_t($0.1) == speed }) else { return nil }
        bitsPerSecond = entry.0
    }

    /// 8N1 framing: one start bit, eight data bits, one stop bit, so 10 bits carry one byte.
    public var bytesPerSecond: Double { Double(bitsPerSecond) / 10 }

    /// The order docs/hardware.md hunts in: the common NMEA rates first (9600, then the NMEA 0183 standard
    /// 4800), then the faster rates u-blox, SiRF and MediaTek configurations use.
    public static let huntOrder: [BaudRate] = [9600, 4800, 38400, 115200, 57600, 19200, 230400].map { BaudRate($0)! }

    public static var supported: [Int] { table.map(\.0) }

    public static func < (lhs: BaudRate, rhs: BaudRate) -> Bool { lhs.bitsPerSecond < rhs.bitsPerSecond }
    public var description: String { String(bitsPerSecond) }
}
