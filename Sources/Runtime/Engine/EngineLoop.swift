import Alerts
import Dispatch
import Foundation
import Geofence
import NMEA
import Store
import Synchronization

/// The one loop of SPEC §2, for `run`, `replay` and every future source: a reader thread runs the
/// source and pushes its inputs into a fixed-capacity ring; the engine thread (the caller's)
/// drains the ring, advances the fences, commits each batch of events to the state file (event
/// log, fence states, outbox rows) and only then hands them to the sinks. A `kill -9` at any
/// moment therefore loses no event that a sink saw, and a restart gives no second `enter`.
///
/// Sinks never block this thread: slow ones (hooks, deliveries) queue and work elsewhere, and
/// report their problems back through `ProblemReports` as `error` events.
public final class EngineLoop {
    public struct Configuration: Sendable {
        public var settings = EventSettings()
        public var ringCapacity = 1024
        /// The fence file to re-read on SIGHUP or when it changes; nil: the fences stay as loaded.
        public var reloadPath: String?
        /// Stop on SIGINT/SIGTERM (the caller installed `StopSignals`).
        public var stopsOnSignals = false
        /// The fence file, remembered in the state file for `status` (SPEC §14).
        public var fencesPath: String?
        /// Days of track the state file keeps (`--keep-days`, SPEC §14).
        public var keepDays = 7.0

        public init() {}
    }

    public struct Summary: Sendable {
        public var fixes = 0
        public var events = 0
        /// Inputs the ring dropped because the engine fell behind a live source.
        public var overflow = 0
    }

    private let configuration: Configuration
    private var fences: FenceSet
    private var engine: EventEngine
    private let store: StateStore?
    private let sinks: [EventSink]
    private let outboxTargets: [OutboxTarget]
    private let fixObservers: [EventSink]
    private let reports: ProblemReports
    /// The track and odometer in the state file (SPEC §14), when there is one.
    private let track: TrackRecorder?
    /// The sinks that see an event only once it is synced to storage, through `durability`.
    private let waitingSinks: [EventSink]
    /// The others (console, bell; all of them without a state file): called right after the commit.
    private let immediateSinks: [EventSink]
    private var durability: DurabilityStage?
    private var batch: [GeofenceEvent] = []
    private var summary = Summary()

    /// - Throws: `StoreError` when the saved fence states cannot be read.
    init(
        configuration: Configuration, fences: FenceSet, store: StateStore?, sinks: [EventSink], reports: ProblemReports
    ) throws {
        self.configuration = configuration
        self.fences = fences
        self.store = store
        self.sinks = sinks
        self.reports = reports
        outboxTargets = sinks.compactMap { sink in
            sink.outboxTarget.map { OutboxTarget(name: $0, body: sink.outboxBody(for:fences:)) }
        }
        fixObservers = sinks.filter(\.observesFixes)
        waitingSinks = store == nil ? [] : sinks.filter(\.waitsForStorage)
        immediateSinks = store == nil ? sinks : sinks.filter { !$0.waitsForStorage }
        precondition(outboxTargets.isEmpty || store != nil, "delivery sinks need the state file's outbox")
        engine = EventEngine(fences: fences, settings: configuration.settings)
        if let store {
            engine.restore(try store.fenceStates())
            engine.restoreMotion(try store.motionState())
        }
        var trackSettings = TrackRecorder.Settings()
        trackSettings.keepDays = configuration.keepDays
        trackSettings.maxAccuracy = configuration.settings.maxAccuracy
        track = store.map { TrackRecorder(store: $0, settings: trackSettings) }
        let restored = engine.snapshot()
        for sink in sinks { sink.restored(restored) }
    }

    /// Runs `source` to its end (a capture) or until a stop signal (a live source).
    func run(_ source: FixSource) throws -> Summary {
        let ring = SPSCRing<EngineInput>(capacity: configuration.ringCapacity)
        let doorbell = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let closed = Atomic<Bool>(false)
        let reader = Thread {
            let push: (EngineInput) -> Void = { input in
                if source.waitsForRoom {
                    while !ring.push(input), !closed.load(ordering: .relaxed) { usleep(200) }
                } else {
                    // Never blocks: a full ring drops the input and counts it (SPEC §2).
                    ring.push(input)
                }
                doorbell.signal()
            }
            source.run(push)
            push(.endOfInput)
            readerDone.signal()
        }
        if let store { durability = try DurabilityStage(store: store) { doorbell.signal() } }
        for sink in sinks { sink.start() }
        reader.name = "gpsfence reader"
        reader.stackSize = 1 << 20
        reader.start()
        defer {
            closed.store(true, ordering: .relaxed)
            source.stop()
            _ = readerDone.wait(timeout: .now() + 5)
            releaseDurable(syncingNow: true)
            // Sinks with background work (hooks, a replay's deliveries) end first, within their
            // timeouts: what they report (killed, not run, target down) still becomes `error`
            // events, committed and shown by the other sinks, before any sink finishes.
            for sink in sinks { sink.stop() }
            for message in reports.take() { error(message) }
            try? flush()
            releaseDurable(syncingNow: true)
            durability?.stop()
            for sink in sinks { sink.finish() }
            // Too late for an event (the sinks are finished): said on standard error, not lost.
            for message in reports.take() { OutputWriter.standardError.write(line: "gpsfence: \(message)") }
            // The last second of track, and "stopped" for `status`; a failure here loses only that.
            try? track?.flush()
            try? store?.noteStopped()
            store?.stopBackgroundCheckpoints()
        }
        try store?.noteMonitoringStarted(fencesPath: configuration.fencesPath ?? "")
        // Checkpoints run beside the engine, not inside the commit that makes an event durable.
        try store?.startBackgroundCheckpoints()
        var lastAlive = DispatchTime.now()

        if source.isLive {
            engine.start(at: currentUTCTime()) { batch.append($0) }
            try flush()
        }
        var fenceFile = configuration.reloadPath.map(FenceFileStamp.init(path:))
        if fenceFile != nil { ReloadSignal.install() }
        var lastInput = DispatchTime.now()
        var reportedOverflow = 0
        var lastProblem: String?
        var stopDeadline: DispatchTime?

        consume: while true {
            if configuration.stopsOnSignals, StopSignals.isRaised, stopDeadline == nil {
                source.stop()
                stopDeadline = .now() + 5
            }
            if let stopDeadline, DispatchTime.now() > stopDeadline { break }
            if doorbell.wait(timeout: .now() + 0.5) == .timedOut, source.isLive,
                Double(DispatchTime.now().uptimeNanoseconds - lastInput.uptimeNanoseconds) / 1e9
                    >= configuration.settings.stale
            {
                // The receiver fell silent for `stale` seconds: fix_lost on the wall clock (SPEC §6).
                engine.silence(at: currentUTCTime()) { batch.append($0) }
            }
            while let input = ring.pop() {
                switch input {
                case .fix(let fix):
                    // Only the receiver's own data counts as "not silent"; device problems repeat
                    // while it is unplugged and must not hold fix_lost back.
                    lastInput = DispatchTime.now()
                    summary.fixes += 1
                    engine.process(fix) { batch.append($0) }
                    try flush()
                    for sink in fixObservers { sink.observe(fix) }
                    try track?.record(fix)
                case .silentCycle(let cycle):
                    lastInput = DispatchTime.now()
                    if let time = cycle.time { engine.tick(time) { batch.append($0) } }
                case .connected(let device, let detail):
                    var event = GeofenceEvent(kind: .deviceConnected, time: currentUTCTime())
                    event.message = device + (detail.map { " " + $0 } ?? "")
                    batch.append(event)
                    lastProblem = nil
                    try store?.noteDevice(device, detail: detail)
                case .lost(let device, let reason):
                    var event = GeofenceEvent(kind: .deviceLost, time: currentUTCTime())
                    event.message = "\(device): \(reason)"
                    batch.append(event)
                case .problem(let message):
                    // The source retries on its own; say each distinct problem once.
                    if message != lastProblem { error(message) }
                    lastProblem = message
                case .endOfInput:
                    try flush()
                    break consume
                }
                try flush()
            }
            releaseDurable()
            for message in reports.take() { error(message) }
            if source.isLive, DispatchTime.now().uptimeNanoseconds - lastAlive.uptimeNanoseconds > 5_000_000_000 {
                // `status` tells a live run from one that died by the stamp the track writes carry.
                try track?.flushIfDue()
                lastAlive = .now()
            }
            if ring.overflow > reportedOverflow {
                error(
                    "the engine fell behind: \(ring.overflow - reportedOverflow) fixes dropped (ring of \(ring.capacity))"
                )
                reportedOverflow = ring.overflow
            }
            if ReloadSignal.take() || fenceFile?.changed() == true, let path = configuration.reloadPath {
                try reload(from: path)
            }
            try flush()
        }
        summary.overflow = ring.overflow
        return summary
    }

    private func error(_ message: String) {
        var event = GeofenceEvent(kind: .error, time: currentUTCTime())
        event.message = message
        batch.append(event)
    }

    private func flush() throws {
        guard !batch.isEmpty else { return }
        try deliver(batch, fences: fences)
        batch.removeAll(keepingCapacity: true)
    }

    /// Commits `events` (rendered against `set`, the fences they refer to) with the fence states
    /// after them, then hands the ones that were new to the sinks.
    private func deliver(_ events: [GeofenceEvent], fences set: FenceSet) throws {
        let outgoing = events.map { OutgoingEvent($0, fences: set) }
        let fresh =
            try store?.commit(
                events: outgoing, insideStates: engine.snapshot(), fences: set, outbox: outboxTargets,
                motion: engine.motionSnapshot)
            ?? outgoing
        for event in fresh {
            summary.events += 1
            for sink in immediateSinks { sink.deliver(event, fences: set) }
        }
        durability?.submit(fresh, fences: set)
    }

    /// Hands the events that are now synced to the sinks that wait for storage.
    private func releaseDurable(syncingNow: Bool = false) {
        guard let durability else { return }
        if syncingNow { durability.syncNow() }
        durability.takeDurable { event, set in
            for sink in waitingSinks { sink.deliver(event, fences: set) }
        } problem: { message in
            error("the state file cannot be synced to storage, events wait for it: \(message)")
        }
    }

    /// SPEC §6 reload: `unregistered` for the fences that are gone (rendered against the old set),
    /// unchanged fences (same id and geometry) keep their state, and the new set is `registered`.
    /// A file that fails to load keeps the fences already loaded.
    private func reload(from path: String) throws {
        let now = currentUTCTime()
        let fresh: FenceSet
        do {
            fresh = try FenceFile.load(path)
        } catch {
            self.error("reload failed, keeping the \(fences.count) fences loaded: \(error.message)")
            return
        }
        try flush()
        let kept = Set(fresh.ids)
        let gone = (0..<fences.count).filter { !kept.contains(fences.ids[$0]) }
        if !gone.isEmpty {
            var event = GeofenceEvent(kind: .unregistered, time: now)
            event.fences = gone
            try deliver([event], fences: fences)
        }
        let next = EventEngine(fences: fresh, settings: configuration.settings)
        next.restore(engine.snapshot())
        next.restoreMotion(engine.motionSnapshot)
        engine = next
        fences = fresh
        next.start(at: now) { batch.append($0) }
    }
}
