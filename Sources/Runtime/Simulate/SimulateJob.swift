import NMEA
import Serial

/// `gpsfence simulate`: plays a route into a simulated receiver's wire, epoch by epoch, in real time.
public struct SimulateJob: Sendable {
    public var route: Route
    /// Epochs per second for tracks (and for capture epochs whose spacing cannot be read).
    public var rate = 1.0
    /// m/s, for tracks without times.
    public var speed = 10.0
    public var loop = false
    /// First fix time for tracks without times; now when nil.
    public var start: UTCTime?

    public init(route: Route) { self.route = route }

    /// One epoch: its lines, and the seconds until the next epoch starts.
    public struct Epoch: Sendable {
        public var lines: [[UInt8]]
        public var interval: Double
    }

    /// The epochs of one pass, `pass` counted from 0 (later passes of a track are shifted in time so
    /// that a looping receiver's clock keeps going forward).
    public func epochs(pass: Int, now: UTCTime) -> [Epoch] {
        switch route {
        case .track(let points):
            let fixes = TrackPlayer.fixes(points, rate: rate, speed: speed, start: start ?? now)
            let step = Int64((1000 / rate).rounded())
            let period = fixes.last!.time.millisecondsSinceEpoch - fixes.first!.time.millisecondsSinceEpoch + step
            return fixes.enumerated().map { index, fix in
                var shifted = fix
                shifted.time.millisecondsSinceEpoch += Int64(pass) * period
                let next = index + 1 < fixes.count ? fixes[index + 1].time.millisecondsSinceEpoch : fix.time.millisecondsSinceEpoch + step
                return Epoch(lines: EpochSentences.lines(for: shifted),
                             interval: Double(next - fix.time.millisecondsSinceEpoch) / 1000)
            }
        case .capture(let captured):
            return captured.enumerated().map { index, epoch in
                let next = index + 1 < captured.count ? captured[index + 1].timeOfDay : nil
                return Epoch(lines: epoch.lines, interval: CaptureRoute.interval(from: epoch.timeOfDay, to: next, fallback: 1 / rate))
            }
        }
    }

    /// Bytes per second the epochs need, against what the line carries; for a warning.
    public func bytesPerSecond(now: UTCTime) -> Double {
        let sample = epochs(pass: 0, now: now).prefix(20)
        let bytes = sample.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } }
        let seconds = sample.reduce(0) { $0 + $1.interval }
        return seconds > 0 ? Double(bytes) / seconds : 0
    }

    /// Plays until the route ends (or forever with `loop`) or `shouldStop` says so.
    public func run(wire: SimulatedWire, now: () -> UTCTime, shouldStop: () -> Bool) throws(SerialError) {
        var pass = 0
        var due = monotonicSeconds()
        let origin = now()  // once: later passes are shifted from the same start
        repeat {
            for epoch in epochs(pass: pass, now: origin) {
                while monotonicSeconds() < due {
                    if shouldStop() { return }
                    sleepSeconds(min(0.05, due - monotonicSeconds()))
                }
                for line in epoch.lines {
                    if shouldStop() { return }
                    try wire.send(line)
                }
                due += epoch.interval
                // A line too slow for the rate stretches the epochs rather than queueing without end.
                if monotonicSeconds() > due + epoch.interval { due = monotonicSeconds() }
            }
            pass += 1
        } while loop && !shouldStop()
        // Stay up for one more period so that the reader drains the last bytes: closing the master
        // of a pseudo-terminal throws away what the slave has not read yet.
        let end = due
        while monotonicSeconds() < end, !shouldStop() { sleepSeconds(0.02) }
    }
}
