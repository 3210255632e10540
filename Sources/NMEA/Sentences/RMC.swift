/// RMC: the recommended minimum: time, status, position, speed, track, date, magnetic variation.
///
/// `$GPRMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a[,m[,s]]*hh` — NMEA 2.3 adds the
/// mode indicator, 4.1 the navigational status.
public struct RMC: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    /// `A` valid, `V` warning (no usable position).
    public var status: UInt8?
    public var latitude: Double?
    public var longitude: Double?
    public var speedKnots: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    public var day: Int?
    public var month: Int?
    public var twoDigitYear: Int?
    public var magneticVariation: Double?
    /// FAA mode (NMEA 2.3): A autonomous, D differential, E estimated, N not valid, S simulator, ...
    public var mode: UInt8?
    /// Navigational status (NMEA 4.1): S safe, C caution, U unsafe, V not valid.
    public var navigationalStatus: UInt8?

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        status = f.character(2)
        latitude = f.latitude(3, 4)
        longitude = f.longitude(5, 6)
        speedKnots = f.decimal(7)
        track = f.decimal(8)
        if let date = f.date(9) {
            day = date.day
            month = date.month
            twoDigitYear = date.twoDigitYear
        }
        if let variation = f.decimal(10) {
            magneticVariation = f.character(11) == 0x57 ? -variation : variation
        }
        mode = f.character(12)
        navigationalStatus = f.character(13)
    }

    /// Whether the receiver vouches for a real position: status `A`, and a mode that is not
    /// `N` (no fix), `S` (simulator) or `M` (manual input).
    public var isValid: Bool {
        status == 0x41 && FAAMode.isRealFix(mode)
    }
}
