/// GGA: time, position, fix quality, satellites used, HDOP, altitude above mean sea level.
///
/// `$GPGGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,age,sta*hh`
public struct GGA: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    public var latitude: Double?
    public var longitude: Double?
    /// 0 no fix, 1 GPS, 2 DGPS, 3 PPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, 7 manual, 8 simulator.
    public var quality: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level (the geoid).
    public var altitude: Double?
    /// Geoid height above the WGS84 ellipsoid, metres.
    public var geoidSeparation: Double?
    public var dgpsAge: Double?
    public var dgpsStation: Int?

    /// Whether the quality describes a real position: 1-6 and 9 (autonomous, differential, PPS,
    /// RTK, dead reckoning, SBAS). 0 is no fix, 7 a position typed in by hand, 8 a simulator.
    /// A satellite fix that says it used no satellites (Hemisphere receivers coasting, `1,00`) is
    /// not believed; dead reckoning (6) needs none.
    public var hasRealFix: Bool {
        guard let quality else { return false }
        switch quality {
        case 6: return true
        case 1...5, 9: return satellitesUsed != 0
        default: return false
        }
    }

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        latitude = f.latitude(2, 3)
        longitude = f.longitude(4, 5)
        quality = f.integer(6)
        satellitesUsed = f.integer(7)
        hdop = f.decimal(8)
        altitude = f.decimal(9)
        geoidSeparation = f.decimal(11)
        dgpsAge = f.decimal(13)
        dgpsStation = f.integer(14)
    }
}
