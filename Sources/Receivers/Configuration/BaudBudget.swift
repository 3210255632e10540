import Platform

/// Whether a set of sentences at a rate fits a serial line: 10 bits a byte (8N1), at the longest
/// length each sentence takes. A receiver that is asked for more than its line carries drops
/// sentences silently, so `configure` checks before it changes the rate (docs/hardware.md).
public struct BaudBudget: Equatable, Sendable {
    /// Bytes per cycle of each sentence type, at its usual longest (a GSV cycle is three or four
    /// sentences with several constellations).
    public static let cycleBytes: [String: Int] = [
        "GGA": 82, "RMC": 82, "GSA": 70, "GSV": 280, "VTG": 45, "GLL": 52, "GST": 70, "ZDA": 38, "GNS": 82,
        "GRS": 82,
    ]
    /// Headroom kept free: a line driven to 100 % loses sentences whenever one runs long.
    public static let usableShare = 0.85

    public var bytesPerSecond: Double
    public var lineBytesPerSecond: Double

    public init(sentences: Set<String>, rate: Double, baud: BaudRate) {
        let perCycle = sentences.reduce(0) { $0 + (Self.cycleBytes[$1] ?? 82) }
        bytesPerSecond = Double(perCycle) * rate
        lineBytesPerSecond = baud.bytesPerSecond
    }

    public var fits: Bool { bytesPerSecond <= lineBytesPerSecond * Self.usableShare }

    /// The slowest of `candidates` that fits, if any.
    public static func slowestFitting(sentences: Set<String>, rate: Double, candidates: [BaudRate]) -> BaudRate? {
        candidates.sorted().first { BaudBudget(sentences: sentences, rate: rate, baud: $0).fits }
    }
}
