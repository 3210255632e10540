import Events
import NMEA

/// The time of the events that no fix causes: a problem to report (a target down, a hook that
/// failed), a device that came or went (docs/events.md, `time`).
///
/// Live, that is the wall clock, which agrees with the fix time to within a second. A replay reads
/// as the drive's timeline, so there such an event takes the time of the latest fix processed (at
/// the start, the state file's last fix), and keeps the wall clock as its `wall_time`, for the
/// machines that must know when a delivery problem really happened. One raised on a replay before
/// its clock has any time waits for the first fix and takes that fix's time, ahead of its events.
struct RunClock {
    private let isLive: Bool
    private var replayTime: UTCTime?
    private var waiting: [GeofenceEvent] = []

    /// A live run's clock: the wall clock.
    init() { isLive = true }

    /// A replay's clock, starting at `time` (the state file's last fix), or at the first fix.
    init(replayFrom time: UTCTime?) {
        isLive = false
        replayTime = time
    }

    /// The event `make` builds from its time on this clock and its wall time (nil where the two
    /// are the same clock), into `batch` (or held for the first fix).
    mutating func raise(
        _ make: (_ time: UTCTime, _ wallTime: UTCTime?) -> GeofenceEvent, into batch: inout [GeofenceEvent]
    ) {
        let wall = currentUTCTime()
        guard !isLive else { return batch.append(make(wall, nil)) }
        let event = make(replayTime ?? wall, wall)
        if replayTime == nil { waiting.append(event) } else { batch.append(event) }
    }

    /// A fix (or a cycle) of `time` is about to be processed: the replay's clock reads it, and what
    /// waited for it goes into `batch` first.
    mutating func advance(to time: UTCTime, into batch: inout [GeofenceEvent]) {
        guard !isLive else { return }
        replayTime = time
        for var event in waiting {
            event.time = time
            batch.append(event)
        }
        waiting.removeAll()
    }

    /// The end of a replay that never had a time: what waited keeps the wall clock (there is no
    /// other line for it to be out of order with).
    mutating func releaseWaiting(into batch: inout [GeofenceEvent]) {
        batch.append(contentsOf: waiting)
        waiting.removeAll()
    }
}
