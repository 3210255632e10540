/// GST: pseudorange error statistics, the receiver's own 1-sigma position error estimate.
///
/// `$GPGST,hhmmss.ss,rms,smaj,smin,orient,lat,lon,alt*hh`
public struct GST: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    public var rangeRMS: Double?
    public var semiMajor: Double?
    public var semiMinor: Double?
    public var orientation: Double?
    /// 1-sigma errors in metres.
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        rangeRMS = f.decimal(2)
        semiMajor = f.decimal(3)
        semiMinor = f.decimal(4)
        orientation = f.decimal(5)
        latitudeError = f.decimal(6)
        longitudeError = f.decimal(7)
        altitudeError = f.decimal(8)
    }

    /// Horizontal 1-sigma error (distance RMS), metres: `sqrt(σlat² + σlon²)`.
    public var horizontalError: Double? {
        guard let latitudeError, let longitudeError else { return nil }
        return (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
    }
}
