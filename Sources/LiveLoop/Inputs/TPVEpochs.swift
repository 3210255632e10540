import NMEA

/// Turns gpsd's TPV reports into one fix per receiver epoch (docs/running.md, "One fix per epoch").
///
/// gpsd may report several TPVs for one epoch: one per sentence of the cycle as it arrives (GGA,
/// then RMC, ...), each repeating what it knows. The engine must see one fix per epoch, or exit
/// confirmation and dwell would count reports instead of epochs. So a fix waits here until its
/// epoch is over: a TPV with another time arrives, or no TPV of its time has come for
/// `quietGap` seconds, or the connection ends. TPVs of the waiting fix's time complete it (a
/// later report's fields replace the earlier ones, an unknown one keeps the earlier value); one of
/// an epoch already emitted is dropped.
struct TPVEpochs {
    /// Seconds without a TPV of the waiting epoch after which it is taken as complete. gpsd sends an
    /// epoch's TPVs as the sentences arrive: at 4800 baud a cycle of GGA, GSA, three GSV and RMC
    /// takes about 0.8 s, but the TPV-bearing sentences are rarely more than 0.4 s apart.
    var quietGap = 0.5
    private(set) var pending: Fix?
    private var pendingSeen = 0.0
    private var lastEmitted: UTCTime?
    /// TPVs folded into an earlier one of their epoch, or dropped after it: what the merge saved
    /// the engine from.
    private(set) var merged = 0

    /// A TPV with a position: the fix to emit now (the previous epoch's), if any.
    mutating func add(_ fix: Fix, at now: Double) -> Fix? {
        guard let time = fix.time else { return fix }
        if time == lastEmitted {
            merged += 1
            return nil
        }
        if let waiting = pending, waiting.time == time {
            pending = Self.complete(waiting, with: fix)
            pendingSeen = now
            merged += 1
            return nil
        }
        let finished = pending
        if let finished { lastEmitted = finished.time }
        pending = fix
        pendingSeen = now
        return finished
    }

    /// A TPV without a position: whether it is a cycle of its own (a new time), after which the
    /// fix that waited, if any, goes out first (returned).
    mutating func addWithoutFix(time: UTCTime) -> (flushed: Fix?, isNewEpoch: Bool) {
        if time == lastEmitted || time == pending?.time { return (nil, false) }
        return (flush(), true)
    }

    /// The waiting fix when its epoch has been quiet long enough.
    mutating func flushIfQuiet(at now: Double) -> Fix? {
        guard pending != nil, now - pendingSeen >= quietGap else { return nil }
        return flush()
    }

    /// The waiting fix, now (the connection ended, or another epoch began).
    mutating func flush() -> Fix? {
        guard let finished = pending else { return nil }
        pending = nil
        lastEmitted = finished.time
        return finished
    }

    /// The later report, with what it leaves unknown taken from the earlier one.
    static func complete(_ earlier: Fix, with later: Fix) -> Fix {
        var fix = later
        fix.altitude = later.altitude ?? earlier.altitude
        fix.speed = later.speed ?? earlier.speed
        fix.track = later.track ?? earlier.track
        fix.quality = later.quality ?? earlier.quality
        fix.satellitesUsed = later.satellitesUsed ?? earlier.satellitesUsed
        fix.hdop = later.hdop ?? earlier.hdop
        fix.accuracy = later.accuracy ?? earlier.accuracy
        if later.mode.rawValue < earlier.mode.rawValue { fix.mode = earlier.mode }
        return fix
    }
}
