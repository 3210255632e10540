/// The receiver's clock against the system's monotonic clock (live) and against its own cadence
/// (replay): a spoofer's takeover steps the receiver's time. A late cycle only delays the
/// monotonic reading, so the receiver's time running ahead of it is a step; and a receiver whose
/// epochs keep one phase of their period (x.000 s, x.200 s, ...) does not leave it but by a step.
struct ClockWatch {
    /// Seconds the receiver's clock may run ahead of the monotonic one before it counts as a step.
    static let aheadLimit = 1.0
    /// Milliseconds off the cadence's phase that count as a step.
    static let phaseLimit: Int64 = 100
    /// Intervals at one phase before the phase is trusted.
    static let steadyIntervals = 5

    private var lastTime: Int64?
    /// The receiver's time minus the monotonic clock, at its largest so far (seconds).
    private var aheadReference: Double?
    /// The last cycle's two clocks, and how many intervals in a row they kept pace (within half
    /// a second): a receiver whose time runs at another rate (a simulator played faster) has
    /// no pace for a step to leave.
    private var lastLive: (time: Int64, monotonic: Double)?
    private var livePace = 0
    private var lastInterval: Int64?
    /// The receiver's period once two intervals agree, and how many intervals have kept its phase.
    private var period: Int64?
    private var steady = 0

    /// Whether the cycle at `time` (milliseconds of the receiver's clock) stepped the clock.
    mutating func observe(time: Int64, monotonic: Double?) -> Bool {
        var jumped = false
        if let monotonic {
            let ahead = Double(time) / 1000 - monotonic
            if let reference = aheadReference, ahead - reference > Self.aheadLimit, livePace >= Self.steadyIntervals {
                jumped = true
            }
            if let lastLive {
                let drift = Double(time - lastLive.time) / 1000 - (monotonic - lastLive.monotonic)
                livePace = abs(drift) < 0.5 ? livePace + 1 : 0
            }
            lastLive = (time, monotonic)
            aheadReference = max(aheadReference ?? ahead, ahead)
            if jumped { aheadReference = ahead }
        }
        if let lastTime {
            let interval = time - lastTime
            if interval < -500 {
                jumped = true
                steady = 0
            } else if interval > 0 {
                jumped = judgeCadence(interval) || jumped
            }
        }
        lastTime = time
        return jumped
    }

    private mutating func judgeCadence(_ interval: Int64) -> Bool {
        defer { lastInterval = interval }
        guard let period, period > 0 else {
            if let lastInterval, abs(lastInterval - interval) <= 20 { self.period = interval }
            return false
        }
        let periods = (interval + period / 2) / period
        let offPhase = abs(interval - periods * period)
        guard offPhase > Self.phaseLimit else {
            steady += 1
            return false
        }
        let trusted = steady >= Self.steadyIntervals
        steady = 0
        return trusted
    }
}
