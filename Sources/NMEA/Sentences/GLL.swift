/// GLL: geographic position with time and status.
///
/// `$GPGLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A[,m]*hh` — early receivers stop after the longitude.
public struct GLL: Equatable, Sendable {
    public var latitude: Double?
    public var longitude: Double?
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    public var status: UInt8?
    public var mode: UInt8?

    public init(_ f: borrowing Fields) {
        latitude = f.latitude(1, 2)
        longitude = f.longitude(3, 4)
        time = f.timeOfDay(5)
        if time == nil { timeIsInvalid = !f.isEmpty(5) }
        status = f.character(6)
        mode = f.character(7)
    }

    /// Status `A`, and a mode that is not no-fix, simulator or manual (see `FAAMode`).
    public var isValid: Bool { status == 0x41 && FAAMode.isRealFix(mode) }
}
