/// GNS: multi-constellation fix data. One mode character per constellation (GPS, GLONASS,
/// Galileo, BeiDou, ...): `N` no fix, `A` autonomous, `D` differential, `R`/`F` RTK, ...
///
/// `$GNGNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,mmmm,nn,h.h,a.a,g.g,age,sta[,s]*hh`
public struct GNS: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    public var latitude: Double?
    public var longitude: Double?
    /// Whether any constellation reports a fix (a mode character other than `N`).
    public var hasFix: Bool
    public var satellitesUsed: Int?
    public var hdop: Double?
    public var altitude: Double?
    public var geoidSeparation: Double?
    public var navigationalStatus: UInt8?

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        latitude = f.latitude(2, 3)
        longitude = f.longitude(4, 5)
        hasFix = f[6].contains { $0 != 0x4E }
        satellitesUsed = f.integer(7)
        hdop = f.decimal(8)
        altitude = f.decimal(9)
        geoidSeparation = f.decimal(10)
        navigationalStatus = f.character(13)
    }
}
