/// GSV: satellites in view, up to four per sentence.
///
/// `$GPGSV,3,1,11,03,03,111,00,04,15,270,00,06,01,010,00,13,06,292,00[,sig]*hh`
public struct GSV: Equatable, Sendable {
    public struct Satellite: Equatable, Sendable {
        public var prn: Int?
        public var elevation: Int?
        public var azimuth: Int?
        /// Signal to noise ratio, dB-Hz; nil when not tracking.
        public var snr: Int?

        public init(prn: Int? = nil, elevation: Int? = nil, azimuth: Int? = nil, snr: Int? = nil) {
            self.prn = prn
            self.elevation = elevation
            self.azimuth = azimuth
            self.snr = snr
        }
    }

    public var totalMessages: Int?
    public var messageNumber: Int?
    public var satellitesInView: Int?
    public var satelliteCount: Int
    private var storage = InlineArray<4, Satellite>(repeating: Satellite())
    /// NMEA 4.1 signal id.
    public var signalID: Int?

    public init?(_ f: borrowing Fields) {
        guard f.count >= 4 else { return nil }
        totalMessages = f.integer(1)
        messageNumber = f.integer(2)
        satellitesInView = f.integer(3)
        let blocks = min(4, (f.count - 4) / 4)
        satelliteCount = 0
        for block in 0..<blocks {
            let base = 4 + block * 4
            let satellite = Satellite(
                prn: f.integer(base), elevation: f.integer(base + 1), azimuth: f.integer(base + 2),
                snr: f.integer(base + 3))
            if satellite.prn != nil {
                storage[satelliteCount] = satellite
                satelliteCount += 1
            }
        }
        signalID = (f.count - 4) % 4 == 1 ? f.integer(f.count - 1) : nil
    }

    public func satellite(_ index: Int) -> Satellite { storage[index] }

    public static func == (lhs: GSV, rhs: GSV) -> Bool {
        guard lhs.totalMessages == rhs.totalMessages, lhs.messageNumber == rhs.messageNumber,
            lhs.satellitesInView == rhs.satellitesInView, lhs.satelliteCount == rhs.satelliteCount,
            lhs.signalID == rhs.signalID
        else { return false }
        return (0..<lhs.satelliteCount).allSatisfy { lhs.storage[$0] == rhs.storage[$0] }
    }
}
