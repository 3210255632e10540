/// GSA: DOPs and the satellites used in the fix.
///
/// `$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1[,sys]*hh` — twelve satellite slots; NMEA 4.1 adds a
/// system id. Some receivers send more or fewer slots, so the DOPs are read from the end.
public struct GSA: Equatable, Sendable {
    /// `A` automatic 2D/3D, `M` manual.
    public var selection: UInt8?
    /// 1 no fix, 2 2D, 3 3D.
    public var fixType: Int?
    public var satellitesUsed: Int
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
    /// NMEA 4.1 GNSS system id (1 GPS, 2 GLONASS, 3 Galileo, 4 BeiDou, ...).
    public var systemID: Int?

    /// The fix type, unless the sentence contradicts itself: a 2D or 3D fix with no satellite
    /// listed (the i.Trek M3 and some SiRF III send `$GPGSA,A,2,,,,,,,,,,,,,50.0,50.0,50.0` while
    /// they have no fix), or a value outside 1...3.
    public var trustedFixType: Int? {
        guard let fixType, (1...3).contains(fixType) else { return nil }
        return fixType == 1 || satellitesUsed > 0 ? fixType : nil
    }

    public init?(_ f: borrowing Fields) {
        let count = f.count
        guard count >= 6 else { return nil }
        selection = f.character(1)
        fixType = f.integer(2)
        // Standard layout: 12 slots in fields 3...14, then PDOP, HDOP, VDOP (15...17), then sys (18).
        // With another slot count, the three DOPs are the last three fields (before a system id
        // when the count says there is one).
        let dopStart: Int
        if count == 18 || count == 19 {
            dopStart = 15
        } else {
            dopStart = count - 3
        }
        var used = 0
        for index in 3..<max(3, dopStart) {
            if !f.isEmpty(index) { used += 1 }
        }
        satellitesUsed = used
        pdop = f.decimal(dopStart)
        hdop = f.decimal(dopStart + 1)
        vdop = f.decimal(dopStart + 2)
        systemID = count == 19 ? f.integer(18) : nil
    }
}
