/// GBS: the receiver's own fault detection (RAIM): expected errors and the satellite it found faulty.
///
/// `$GPGBS,hhmmss.ss,latErr,lonErr,altErr,svid,prob,bias,stddev[,systemID,signalID]*hh`
public struct GBS: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day: the sentence belongs to no epoch.
    public var timeIsInvalid = false
    /// Expected 1-sigma errors, metres.
    public var latitudeError: Double?
    public var longitudeError: Double?
    public var altitudeError: Double?
    /// The satellite most likely failed; nil when the receiver found none.
    public var failedSatellite: Int?
    /// Probability of missed detection of that failure.
    public var missedDetectionProbability: Double?
    /// Estimated bias on the failed satellite, metres, and its standard deviation.
    public var bias: Double?
    public var biasDeviation: Double?
    /// NMEA 4.1 system and signal ids.
    public var systemID: Int?
    public var signalID: Int?

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        latitudeError = f.decimal(2)
        longitudeError = f.decimal(3)
        altitudeError = f.decimal(4)
        failedSatellite = f.integer(5)
        missedDetectionProbability = f.decimal(6)
        bias = f.decimal(7)
        biasDeviation = f.decimal(8)
        systemID = f.integer(9)
        signalID = f.integer(10)
    }

    /// Whether the receiver names a failed satellite: its position rests on a faulty measurement
    /// it could not exclude, or just excluded.
    public var reportsFault: Bool { failedSatellite.map { $0 > 0 } ?? false }
}
