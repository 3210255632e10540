/// One position fix: everything the receiver said about one epoch (one UTC time of day).
public struct Fix: Equatable, Sendable, BitwiseCopyable {
    public enum Mode: Int, Sendable, BitwiseCopyable {
        case twoD = 2
        case threeD = 3
    }

    /// UTC time; nil until the receiver has sent a date (RMC or ZDA).
    public var time: UTCTime?
    public var timeOfDay: TimeOfDay
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    public var mode: Mode
    /// GGA fix quality (1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning, ...).
    public var quality: Int?
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Horizontal accuracy estimate, metres (see `AccuracyModel`).
    public var accuracy: Double?
    /// What the receiver said itself of jamming and spoofing by the time this fix left the decoder
    /// (its latest UBX-NAV-STATUS, MON-RF or MON-HW, SEC-SIG): the reports sent before the epoch's
    /// last sentence, and those after it while the decoder does not yet know where the receiver's
    /// cycle ends. `.unknown` from a receiver that sends none, or stopped sending them
    /// (`Decoder.receiverFlagsLastFor` cycles ago). A cycle without a fix carries them too
    /// (`EpochTime.receiverFlags`).
    public var receiverFlags = ReceiverIntegrityFlags.unknown

    public init(
        time: UTCTime?, timeOfDay: TimeOfDay, latitude: Double, longitude: Double, altitude: Double? = nil,
        speed: Double? = nil, track: Double? = nil, mode: Mode, quality: Int? = nil, satellitesUsed: Int? = nil,
        hdop: Double? = nil, accuracy: Double? = nil
    ) {
        self.time = time
        self.timeOfDay = timeOfDay
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.speed = speed
        self.track = track
        self.mode = mode
        self.quality = quality
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
        self.accuracy = accuracy
    }
}

/// How a horizontal accuracy is estimated when the receiver sends no GST.
///
/// The estimate is HDOP times a user equivalent range error (UERE) that depends on the GGA fix
/// quality. The values are typical 1-sigma figures for each kind of fix, documented in docs/nmea.md.
public struct AccuracyModel: Sendable, Equatable {
    /// UERE in metres for an autonomous fix (quality 1, or unknown).
    public var autonomous = 5.0
    /// Differential or SBAS-corrected (quality 2, 9).
    public var differential = 2.0
    /// RTK float (quality 5).
    public var rtkFloat = 0.5
    /// RTK fixed (quality 4).
    public var rtkFixed = 0.05

    public init() {}

    public func uere(quality: Int?) -> Double {
        switch quality {
        case 2, 9: differential
        case 4: rtkFixed
        case 5: rtkFloat
        default: autonomous
        }
    }

    /// GST's horizontal error when the epoch has one, else HDOP x UERE, else unknown.
    public func horizontalAccuracy(gstError: Double?, hdop: Double?, quality: Int?) -> Double? {
        if let gstError { return gstError }
        guard let hdop, hdop > 0 else { return nil }
        return hdop * uere(quality: quality)
    }
}
