import NMEA

/// What the integrity monitor reads of one receiver cycle.
public struct IntegrityCycle: Sendable {
    /// The cycle's time by the receiver's clock.
    public var time: UTCTime
    /// Its fix, if it had one.
    public var fix: Fix?
    public var sky: EpochSky
    /// What the receiver says itself; `.unknown` from one that says nothing.
    public var flags: ReceiverIntegrityFlags
    /// The system's monotonic clock, in seconds, when the cycle arrived: live runs only (a
    /// replay's cycles arrive as fast as they are read).
    public var monotonic: Double?

    public init(
        time: UTCTime, fix: Fix?, sky: EpochSky, flags: ReceiverIntegrityFlags = .unknown, monotonic: Double? = nil
    ) {
        self.time = time
        self.fix = fix
        self.sky = sky
        self.flags = flags
        self.monotonic = monotonic
    }
}
