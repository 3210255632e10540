import Events
import Foundation
import NMEA
import Platform
import Synchronization

/// The track sync (docs/running.md, "Track sync"): takes the track points after the server's
/// cursor out of the state file in batches, oldest first, and moves the cursor past a batch only
/// when the server acknowledged it with a 2xx; the next batch waits for that. While the server is
/// down it retries the same batch with the outbox's backoff and reports one `error` per outage.
///
/// The cursor is kept in memory and written to the state file at most every
/// `cursorWriteInterval` seconds, when the server stops answering, and at the end: the storage
/// write budget allows no commit per request, and a `kill -9` costs at most a resend of the points
/// acknowledged since the last write (each carries its fix time as an id, so a server can drop it).
///
/// The state file is reached through `TrackSyncStore`, which the state store implements.
public final class TrackSyncSender: @unchecked Sendable {
    public enum Step: Equatable {
        /// A batch (or, for OsmAnd, at least one point) was acknowledged.
        case sent
        /// The server did not acknowledge; the next try waits for the backoff.
        case failed
        /// Nothing queued, or less than the threshold and no reason to send it yet.
        case waiting
    }

    let configuration: TrackSyncConfiguration
    private let store: any TrackSyncStore
    private let poster: HTTPPoster
    private let report: @Sendable (Problem) -> Void
    private let wakeUp = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(true)
    private let flushRequested = Atomic<Bool>(false)
    private let draining = Atomic<Bool>(false)
    /// Set by the thread when a drain found nothing left to send, and signalled with it.
    private let drained = Atomic<Bool>(false)
    private let drainedSignal = DispatchSemaphore(value: 0)
    private var thread: Thread?
    /// Signalled once by the thread as it ends: `stop` waits on it, never polls `isFinished`, so
    /// what the thread wrote (the cursor, the last error) is then visible to `stop`.
    private let ended = DispatchSemaphore(value: 0)

    // The sending thread's own (or the `sync` command's, which has no thread): `step` is where
    // they are written, one thread at a time.
    private let sender = OneThreadAtATime("TrackSyncSender.step")
    private var cursor: Int64
    private var savedCursor: Int64
    private var lastSave = monotonicSeconds()
    private var ackedAt: Int64?
    private var lastSend = monotonicSeconds()
    private var attempts = 0
    /// When the failed batch is tried again, on the monotonic clock (`monotonicSeconds`).
    public private(set) var retryAt: Double?
    private var outage = OutageLog<TransportFailure>()
    public private(set) var lastError: String?
    private var unsavedError: (message: String, at: Int64)?
    /// The odometer just after the point at the cursor (for the `odometer` of the points to come).
    private var ackedOdometer: DayOdometer?

    struct DayOdometer {
        /// The local day, as instants (ms since 1970).
        var span: Range<Int64>
        var meter = Odometer()
        var through: Int64
    }

    public init(
        configuration: TrackSyncConfiguration, store: any TrackSyncStore, report: @escaping @Sendable (Problem) -> Void
    ) throws {
        self.configuration = configuration
        self.store = store
        self.report = report
        poster = HTTPPoster(
            url: configuration.url, headers: configuration.headers, requestTimeout: configuration.requestTimeout)
        cursor = try store.openSyncCursor(target: configuration.target)
        savedCursor = cursor
    }

    var displayName: String { "track sync \(configuration.target)" }

    // MARK: - The thread of a run or a replay

    func start() {
        guard thread == nil else { return }
        let thread = Thread { [self] in
            runThread(named: "gf-sync") {
                loop()
                ended.signal()
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Send what is queued now, below the threshold too (a `stationary` or `moving` event).
    func requestFlush() {
        flushRequested.store(true, ordering: .relaxed)
        wakeUp.signal()
    }

    /// Sends everything queued, waiting at most until `deadline` (on the monotonic clock); then
    /// the thread ends, is joined, and the cursor is written. Returns whether nothing is left.
    @discardableResult
    func stop(drainUntil deadline: Double?) -> Bool {
        var empty = false
        if let deadline, thread != nil {
            draining.store(true, ordering: .relaxed)
            wakeUp.signal()
            _ = drainedSignal.wait(timeout: .now() + max(deadline - monotonicSeconds(), 0))
            empty = drained.load(ordering: .relaxed)
        }
        running.store(false, ordering: .relaxed)
        wakeUp.signal()
        if thread != nil {
            ended.wait()
            thread = nil
        }
        saveCursor()
        return empty
    }

    /// Whether the sending thread runs (started and not yet joined by `stop`).
    var isRunning: Bool { thread != nil }

    private func loop() {
        while running.load(ordering: .relaxed) {
            if let retryAt, retryAt > monotonicSeconds() {
                _ = wakeUp.wait(timeout: .now() + min(retryAt - monotonicSeconds(), 1))
                continue
            }
            // Read once, before the step: a drain that begins while a step below the threshold is
            // running must not be taken as done when that step finds the rest too small to send.
            let drainingNow = draining.load(ordering: .relaxed)
            let force = flushRequested.exchange(false, ordering: .relaxed) || drainingNow
            let step: Step
            do { step = try self.step(force: force) } catch {
                fail(.caught(CaughtError(error)))
                continue
            }
            switch step {
            case .sent, .failed: continue
            case .waiting:
                if drainingNow {
                    drained.store(true, ordering: .relaxed)
                    drainedSignal.signal()
                }
                saveCursorIfDue()
                _ = wakeUp.wait(timeout: .now() + 1)
            }
        }
    }

    // MARK: - One step

    /// Sends one batch if there is reason to: `force` (a flush, a drain), the threshold reached, or
    /// the interval passed with something queued.
    public func step(force: Bool) throws -> Step {
        let claim = sender.enter()
        defer { sender.leave(claim) }
        let queued = try store.trackBacklog(after: cursor, cap: max(configuration.threshold, 1))
        guard queued > 0 else { return .waiting }
        let intervalPassed = configuration.interval.map { monotonicSeconds() - lastSend >= $0 } ?? false
        guard force || intervalPassed || queued >= configuration.threshold else { return .waiting }
        let points = try annotate(try store.trackPoints(after: cursor, limit: configuration.batch))
        guard let last = points.last else { return .waiting }
        lastSend = monotonicSeconds()
        switch configuration.format {
        case .json:
            let outcome = poster.post(
                TrackSyncBody.json(device: configuration.device, points: points), contentType: "application/json")
            switch outcome {
            case .delivered:
                acknowledge(last)
                return .sent
            case .failed(let failure):
                fail(failure)
                return .failed
            }
        case .osmand:
            var sent = false
            for point in points {
                guard
                    let url = TrackSyncBody.osmAnd(
                        url: configuration.url, device: configuration.device, point: point.point)
                else { throw TrackSyncError.osmAndRequest(target: configuration.target) }
                switch poster.post(Data(), contentType: nil, to: url) {
                case .delivered:
                    acknowledge(point)
                    sent = true
                case .failed(let failure):
                    fail(failure)
                    return sent ? .sent : .failed
                }
            }
            return .sent
        }
    }

    private func acknowledge(_ point: SyncedPoint) {
        cursor = point.point.time
        ackedOdometer = point.odometerAfter
        ackedAt = currentUTCTime().millisecondsSinceEpoch
        attempts = 0
        retryAt = nil
        if outage.recovered() { DeliveryNotice.standardError("\(displayName) is reachable again") }
        saveCursorIfDue()
    }

    private func fail(_ failure: TransportFailure) {
        attempts += 1
        retryAt = monotonicSeconds() + configuration.backoff.delay(afterAttempts: attempts)
        lastError = failure.text
        unsavedError = (failure.text, currentUTCTime().millisecondsSinceEpoch)
        guard outage.failed(failure) else { return }
        // Once per outage, before it is reported: what was acknowledged before it, and why it
        // stopped, become durable.
        saveCursor()
        report(.delivery(.failing(target: displayName, failure, .whileRunning)))
    }

    private func saveCursorIfDue() {
        guard cursor != savedCursor || unsavedError != nil,
            monotonicSeconds() - lastSave >= configuration.cursorWriteInterval
        else { return }
        saveCursor()
    }

    /// Writes the cursor and the last error (best effort: the next write carries them again).
    public func saveCursor() {
        guard cursor != savedCursor || unsavedError != nil else { return }
        do {
            try store.saveSyncCursor(
                target: configuration.target, ackedTime: cursor, ackedAt: ackedAt, lastError: unsavedError?.message,
                lastErrorAt: unsavedError?.at)
            savedCursor = cursor
            unsavedError = nil
            lastSave = monotonicSeconds()
        } catch {
            report(.delivery(.cursorNotSaved(target: displayName, CaughtError(error))))
        }
    }

    // MARK: - What each point carries

    /// The points with their day's odometer and the motion state in force at each.
    private func annotate(_ points: [TrackPoint]) throws -> [SyncedPoint] {
        guard let first = points.first, let last = points.last else { return [] }
        var motion = try store.motion(at: first.time)
        var changes = try store.motionChanges(after: first.time, through: last.time)[...]
        var odometer = try odometerAtCursor()
        var result: [SyncedPoint] = []
        result.reserveCapacity(points.count)
        for point in points {
            while let change = changes.first, change.time <= point.time {
                motion = change.type
                changes.removeFirst()
            }
            if odometer.map({ !$0.span.contains(point.time) }) ?? true {
                odometer = DayOdometer(span: dayContaining(point.time), through: point.time)
            }
            _ = odometer?.meter.add(point)
            odometer?.through = point.time
            result.append(
                SyncedPoint(
                    point: point, odometer: odometer?.meter.metres ?? 0, motion: motion, odometerAfter: odometer))
        }
        return result
    }

    /// The odometer just after the cursor's point: remembered from the last acknowledgement, or
    /// (at the start) counted again over that day's kept points up to the cursor.
    private func odometerAtCursor() throws -> DayOdometer? {
        if let ackedOdometer, ackedOdometer.through == cursor { return ackedOdometer }
        guard cursor != .min else { return nil }
        let span = dayContaining(cursor)
        var odometer = DayOdometer(span: span, through: cursor)
        var from = span.lowerBound - 1
        reading: while true {
            let points = try store.trackPoints(after: from, limit: 1000)
            for point in points {
                guard point.time <= cursor else { break reading }
                _ = odometer.meter.add(point)
            }
            guard let last = points.last else { break }
            from = last.time
        }
        ackedOdometer = odometer
        return odometer
    }

    /// The local day (of the configuration's calendar) that holds `time`.
    private func dayContaining(_ time: Int64) -> Range<Int64> {
        configuration.calendar.span(of: configuration.calendar.day(of: time))
    }
}
