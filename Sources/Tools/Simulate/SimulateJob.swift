import NMEA
import Platform
import Receivers

/// `gpsfence simulate`: plays a route into a simulated receiver's wire, epoch by epoch, in real time.
public struct SimulateJob: Sendable {
    public var route: Route
    /// Epochs per second for tracks (and for capture epochs whose spacing cannot be read).
    public var rate = 1.0
    /// m/s, for tracks without times.
    public var speed = 10.0
    public var loop = false
    /// First fix time for tracks without times; now when nil. For a timed track, see `shiftsTimes`.
    public var start: UTCTime?
    /// A timed track starts at `start` (or now), not at its own first time.
    public var shiftsTimes = false
    /// A timed track plays this many times as fast.
    public var timeScale = 1.0
    /// Walk a timed track at `speed`, ignoring its times (`--speed` given for a timed route).
    public var ignoresTimes = false
    /// Emulate this receiver's configuration interface on the wire (`simulate --receiver`).
    public var receiver: EmulatedReceiver.Model?
    /// A jammer or a spoofer to rehearse (`--jam`, `--spoof`), on a track's epochs.
    public var interference = Interference()
    /// The route starts once a reader has the pseudo-terminal open (`--wait-for-reader`), so that
    /// a reader started after the simulator hears it from its first fix.
    public var waitsForReader = false

    public init(route: Route) { self.route = route }

    /// One epoch: its lines, and the seconds until the next epoch starts.
    public struct Epoch: Sendable {
        public var lines: [[UInt8]]
        public var interval: Double
        /// The receiver time of the epoch's fix (a track's; nil for a capture's epochs).
        public var time: UTCTime?
        /// What the receiver hears (a track's; nil for a capture's epochs): an emulated u-blox
        /// reports it in its UBX messages.
        public var condition: SignalCondition?
    }

    /// What one pass over the route played, for the "route ended" line.
    public struct PassSummary: Sendable {
        public var pass: Int
        public var epochs: Int
        public var firstFix: UTCTime?
        public var lastFix: UTCTime?
    }

    /// The epochs of one pass, `pass` counted from 0 (later passes of a track are shifted in time so
    /// that a looping receiver's clock keeps going forward).
    public func epochs(pass: Int, now: UTCTime) -> [Epoch] {
        switch route {
        case .track(let points):
            let timing = TrackPlayer.Timing(origin: shiftsTimes ? (start ?? now) : nil, scale: timeScale)
            let fixes = TrackPlayer.fixes(
                ignoresTimes ? points.map { $0.withoutTime } : points, rate: rate, speed: speed, start: start ?? now,
                timing: timing)
            let step = Int64((1000 / rate).rounded())
            let period = fixes.last!.time.millisecondsSinceEpoch - fixes.first!.time.millisecondsSinceEpoch + step
            let first = fixes.first!.time.millisecondsSinceEpoch
            return fixes.enumerated().map { index, fix in
                var shifted = fix
                shifted.time.millisecondsSinceEpoch += Int64(pass) * period
                let next =
                    index + 1 < fixes.count
                    ? fixes[index + 1].time.millisecondsSinceEpoch : fix.time.millisecondsSinceEpoch + step
                let elapsed = Double(shifted.time.millisecondsSinceEpoch - first) / 1000
                var condition = interference.condition(at: elapsed)
                // An emulated receiver sends GST once told to; its settings filter the lines.
                if receiver != nil { condition.writesErrorEllipse = true }
                let reported = interference.reported(shifted, elapsed: elapsed)
                return Epoch(
                    lines: EpochSentences.lines(for: reported, condition: condition),
                    interval: Double(next - fix.time.millisecondsSinceEpoch) / 1000, time: shifted.time,
                    condition: condition)
            }
        case .capture(let captured):
            return captured.enumerated().map { index, epoch in
                let next = index + 1 < captured.count ? captured[index + 1].timeOfDay : nil
                return Epoch(
                    lines: epoch.lines,
                    interval: CaptureRoute.interval(from: epoch.timeOfDay, to: next, fallback: 1 / rate))
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

    /// The standard rates a receiver can be set to, slowest first (docs/running.md).
    public static let standardRates: [BaudRate] = [4800, 9600, 19200, 38400, 57600, 115200, 230400].map {
        BaudRate($0)!
    }

    /// The share of a line's capacity the sentences may use at the default rate: a receiver's
    /// epoch must leave the line idle for a while before the next one, or any jitter stretches it.
    public static let defaultLoad = 0.75

    /// The default `--baud`: the slowest standard rate whose capacity, times `defaultLoad`,
    /// carries every epoch of the first 20 within its interval. One GPS epoch of this simulator is
    /// about 380 bytes (RMC, VTG, GGA, GSA, 2 GSV), so 1 Hz gets 9600, 5 Hz 38400, 10 Hz 57600.
    public func defaultBaud(now: UTCTime) -> BaudRate {
        let sample = epochs(pass: 0, now: now).prefix(20)
        var needed = 0.0
        for epoch in sample where epoch.interval > 0 {
            needed = max(needed, Double(epoch.lines.reduce(0) { $0 + $1.count }) / epoch.interval)
        }
        return Self.standardRates.first { $0.bytesPerSecond * Self.defaultLoad >= needed } ?? Self.standardRates.last!
    }

    /// What one play sent and what did not fit the line.
    public struct PlayCounts: Sendable, Equatable {
        public var sent = 0
        public var sentBytes = 0
        /// Sentences dropped because the transmit buffer was full (the line is too slow for the rate).
        public var dropped = 0
    }

    /// The receiver's UART transmit buffer, in bytes, at least (it holds two whole epochs of the
    /// route, whatever their size): what may wait for the line before sentences are dropped. At
    /// 9600 baud 1 kB drains in about a second, so a receiver's output is never more than that
    /// behind its clock.
    public static let transmitBuffer = 1024.0

    /// Plays until the route ends (or forever with `loop`) or `shouldStop` says so.
    ///
    /// The receiver keeps its clock, as a real one does: each epoch starts on time, and its
    /// sentences go into a transmit buffer (`transmitBuffer`, or one epoch) that the line drains at the
    /// baud rate; a sentence that does not fit in the buffer is dropped (counted in the result).
    /// A line fast enough for the rate never drops anything: the buffer only absorbs an epoch that
    /// comes early (a route's last point) or a line a little slower than the epochs.
    ///
    /// With `receiver`, an emulated receiver reads what the host writes and answers it, and its
    /// settings take effect on the wire: the sentences it sends, its fix and output rates (a track
    /// is walked on at the new rate; a capture keeps its own timing) and its baud rate.
    @discardableResult
    public func run(
        wire: SimulatedWire, now: () -> UTCTime, shouldStop: () -> Bool, passEnded: (PassSummary) -> Void = { _ in }
    ) throws(SerialError) -> PlayCounts {
        var counts = PlayCounts()
        while waitsForReader && !wire.hasReader {
            if shouldStop() { return counts }
            sleepSeconds(0.01)
        }
        var pass = 0
        var due = monotonicSeconds()
        let origin = now()  // once: later passes are shifted from the same start
        let line = receiver.map {
            ReceiverLine(receiver: EmulatedReceiver(model: $0, rate: rate, baud: wire.rate), wire: wire)
        }
        var playing = self  // walks a track at the receiver's fix rate once that changes
        var queued = 0.0  // bytes in the modelled transmit buffer when the epoch starts
        var previousInterval = 0.0
        // Waits until `deadline`, answering the host meanwhile; false when told to stop.
        func wait(until deadline: Double) throws(SerialError) -> Bool {
            while monotonicSeconds() < deadline {
                if shouldStop() { return false }
                try line?.serviceHost()
                sleepSeconds(min(line == nil ? 0.05 : 0.005, deadline - monotonicSeconds()))
            }
            return true
        }
        repeat {
            var played = playing.epochs(pass: pass, now: origin)
            let buffer = played.reduce(Self.transmitBuffer) {
                max($0, 2 * Double($1.lines.reduce(0) { $0 + $1.count }))
            }
            var index = 0
            while index < played.count {
                let epoch = played[index]
                let repeats = line?.repeats ?? 1
                let spacing = epoch.interval / Double(repeats)
                for _ in 0..<repeats {
                    guard try wait(until: due) else { return counts }
                    queued = max(0, queued - previousInterval * wire.rate.bytesPerSecond)
                    previousInterval = spacing
                    for sentence in line?.output(for: epoch) ?? epoch.lines {
                        if shouldStop() { return counts }
                        try line?.serviceHost()
                        if queued + Double(sentence.count) > buffer {
                            counts.dropped += 1
                            continue
                        }
                        queued += Double(sentence.count)
                        try wire.send(sentence)
                        counts.sent += 1
                        counts.sentBytes += sentence.count
                    }
                    due += spacing
                    // A machine too busy to keep up (not the line: that is handled above) catches up
                    // rather than queueing without end.
                    if monotonicSeconds() > due + spacing { due = monotonicSeconds() }
                }
                index += 1
                if let line, case .track = route, let sentAt = epoch.time, abs(line.fixRate - playing.rate) > 1e-9 {
                    playing.rate = line.fixRate
                    played = playing.epochs(pass: pass, now: origin)
                    index =
                        played.firstIndex { ($0.time?.millisecondsSinceEpoch ?? 0) > sentAt.millisecondsSinceEpoch }
                        ?? played.count
                    due = min(due, monotonicSeconds() + 1 / line.fixRate / Double(line.repeats))
                }
            }
            passEnded(
                PassSummary(pass: pass, epochs: played.count, firstFix: played.first?.time, lastFix: played.last?.time))
            pass += 1
        } while loop && !shouldStop()
        // Stay up for one more period so that the reader drains the last bytes: closing the master
        // of a pseudo-terminal throws away what the slave has not read yet.
        _ = try wait(until: due)
        return counts
    }
}
