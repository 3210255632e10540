import Delivery
import Dispatch
import Events
import Fences
import Foundation
import NMEA
import Platform
import Presentation
import Receivers
import Store
import Synchronization

/// The one loop of docs/architecture.md, for `run`, `replay` and every future source: a reader thread runs the
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
        /// Another source of whole fence sets (the broker), made from the set loaded at the start
        /// and the doorbell to ring when it has something (docs/running.md).
        package var fenceFeed: (@Sendable (FenceSet, @escaping @Sendable () -> Void) -> FenceFeed)?
        /// Stop on SIGINT/SIGTERM (the caller installed `StopSignals`).
        public var stopsOnSignals = false
        /// The fence file, remembered in the state file for `status` (docs/report.md).
        public var fencesPath: String?
        /// Days of track the state file keeps (`--keep-days`, docs/report.md).
        public var keepDays = 7.0
        /// Seconds of wall time between track writes (`TrackRecorder.Settings.flushInterval`).
        public var trackWriteInterval = TrackRecorder.Settings.defaultFlushInterval
        /// The track sync's server, noted in the state file beside the sinks' outbox targets as
        /// this run's targets (`status` shows the others apart).
        public var syncTarget: String?
        /// Whose days the odometer counts (`--timezone`, docs/running.md "Time and units").
        public var calendar = LocalCalendar.utc
        /// The anchor and OwnTracks regions over the fence file (docs/running.md, "Fence layers").
        public var layers = FenceLayerOptions()
        /// What raises an alarm (docs/running.md, "Alarms"); nil: this run keeps no alarm (`replay`).
        public var alarms: AlarmPolicy?
        /// Where the answers to the alarm arrive from other threads (the terminal, the broker).
        public var alarmAnswers = AlarmAnswers()
        /// Where the run leaves its live state for `status` and the web page; nil: nobody asks.
        public var liveBoard: LiveBoard?

        public init() {}
    }

    public struct Summary: Sendable {
        public var fixes = 0
        public var events = 0
        /// Inputs the ring dropped because the engine fell behind a live source.
        public var overflow = 0
        /// Fixes not believed: jumps no vehicle makes (`FixPlausibility`).
        public var ignoredFixes = 0
    }

    let configuration: Configuration
    var fences: FenceSet
    var engine: EventEngine
    /// Every fix of every source is judged here before the engine, the track or a sink sees it.
    private var plausibility: FixPlausibility
    /// The fence file's set with the anchor and OwnTracks regions over it.
    let layers: FenceLayerKeeper
    /// The state file, when there is one.
    let store: StateStore?
    private let sinks: [EventSink]
    private let outboxTargets: [OutboxTarget]
    private let fixObservers: [EventSink]
    private let reports: ProblemReports
    /// The track and odometer in the state file (docs/report.md), when there is one.
    let track: TrackRecorder?
    /// The sinks that see an event only once it is synced to storage, through `durability`.
    private let waitingSinks: [EventSink]
    /// The others (console, bell; all of them without a state file): called right after the commit.
    private let immediateSinks: [EventSink]
    private var durability: DurabilityStage?
    var batch: [GeofenceEvent] = []
    /// The time of the events no fix causes; a replay's is set by `begin`.
    private var clock = RunClock()
    var summary = Summary()
    /// What this run remembers from round to round; the reader's turns write it too.
    private var round = Round()
    /// Who runs the engine now (`EngineTurn`).
    private let turn = EngineTurn()
    /// What failed in a turn of the reader's, for the engine thread to throw.
    private var readerTurnFailure: Error?
    /// The run's alarm, when it keeps one.
    var alarms: AlarmKeeper?
    /// The boat's distance from the anchor at the last usable fix, for the alarm.
    var anchorDistance: Double?
    /// `--anchor-warn`: the next pass beyond its share of the radius warns.
    var anchorWarningArmed = true
    /// Whether the positions can be trusted (`EngineLoop+Integrity`).
    var integrity = IntegrityMonitor()
    /// The source is a live receiver: its cycles are timed against the monotonic clock.
    var isLiveRun = false
    /// The last fix the engine used, where an `integrity` event without a fix of its own says the
    /// receiver was.
    var lastBelievedFix: Fix?
    /// The engine's `quietStateChanges` when the fence states were last saved.
    private var savedQuietStateChanges = 0

    /// - Throws: `StoreError` when the saved fence states cannot be read.
    package init(
        configuration: Configuration, fences: FenceSet, store: StateStore?, sinks: [EventSink], reports: ProblemReports
    ) throws {
        self.configuration = configuration
        layers = try FenceLayerKeeper(
            main: fences, options: configuration.layers, store: store, report: reports.reportProblem)
        let fences = layers.set
        self.fences = fences
        self.store = store
        self.sinks = sinks
        self.reports = reports
        outboxTargets = sinks.compactMap { sink in
            sink.outboxTarget.map { OutboxTarget(name: $0, payload: sink.outboxPayload(for:fences:)) }
        }
        fixObservers = sinks.filter(\.observesFixes)
        waitingSinks = store == nil ? [] : sinks.filter(\.waitsForStorage)
        immediateSinks = store == nil ? sinks : sinks.filter { !$0.waitsForStorage }
        precondition(outboxTargets.isEmpty || store != nil, "delivery sinks need the state file's outbox")
        engine = EventEngine(fences: fences, settings: configuration.settings)
        engine.keepRegistrationTimes(layers.creationTimes(in: fences))
        plausibility = FixPlausibility(
            maxSpeed: configuration.settings.maxSpeed, maxAccuracy: configuration.settings.maxAccuracy)
        if let store {
            engine.restore(try store.fenceStates())
            engine.restoreMotion(try store.motionState())
        }
        if let policy = configuration.alarms {
            alarms = AlarmKeeper(policy: policy, saved: try store?.alarmLatch())
        }
        var trackSettings = TrackRecorder.Settings()
        trackSettings.keepDays = configuration.keepDays
        trackSettings.flushInterval = configuration.trackWriteInterval
        trackSettings.maxAccuracy = configuration.settings.maxAccuracy
        trackSettings.calendar = configuration.calendar
        track = store.map { TrackRecorder(store: $0, settings: trackSettings) }
        for sink in sinks { sink.attach(self) }
    }

    /// Runs `source` to its end (a capture) or until a stop signal (a live source): the reader
    /// thread fills the ring; this thread begins the run, then each round waits for input, drains
    /// the ring through the engine, and does the upkeep of a round, and finally shuts down. A live
    /// source's reader drains the ring itself when this thread is not in a round (`EngineTurn`).
    package func run(_ source: FixSource) throws -> Summary {
        let ring = SPSCRing<EngineInput>(capacity: configuration.ringCapacity)
        let foresight = source.readCues
        isLiveRun = source.isLive
        let readerSide = source.isLive ? ReaderSide(loop: self, ring: ring, foresight: foresight) : nil
        var drainHere: (@Sendable () -> Bool)?
        if let readerSide { drainHere = { readerSide.drain() } }
        let reader = ReaderThread(source: source, ring: ring, drainHere: drainHere)
        let doorbell = reader.doorbell
        if let store { durability = try DurabilityStage(store: store) { doorbell.signal() } }
        for sink in sinks { sink.start() }
        reports.wakeOnReport { doorbell.signal() }
        defer { reports.wakeOnReport(nil) }
        let terminalAnswers = startAlarmAnswers(live: source.isLive) { doorbell.signal() }
        defer { stopAlarmAnswers(terminalAnswers) }
        reader.start()
        defer { shutDown(reader) }
        // The feeds start before the fences are registered: an edit of the fence file made as soon
        // as `registered` is said must be seen.
        round.fenceFeeds = startFenceFeeds(doorbell: reader.doorbell)
        defer { for feed in round.fenceFeeds { feed.stop() } }
        try begin(source)
        turn.letReaderRun(true)
        defer { turn.letReaderRun(false) }
        var ended = false
        while !ended {
            var timerSleep = 0.5
            turn.engineThread {
                ended = round.pastStopDeadline(source, stopsOnSignals: configuration.stopsOnSignals)
                timerSleep = round.timerSleep(live: source.isLive, stale: configuration.settings.stale)
            }
            if ended { break }
            let rang = reader.doorbell.wait(timeout: .now() + timerSleep) == .success
            try turn.engineThread {
                if let failure = readerTurnFailure { throw failure }
                if !rang { noteSilence(source) }
                try drain(ring)
                releaseDurable()
                ended = round.ended
                if !ended { try upkeep(source, ring: ring) }
                // A round may have changed the fences: what the reader's last turn foresaw no
                // longer holds, until its next turn.
                foresight?.foreseeQuietCycles(0)
            }
        }
        summary.overflow = ring.overflow
        return summary
    }

    /// A turn of the reader's: what it just pushed, through the engine. False when the engine
    /// thread must wake after all: it was in a round, the input ended, or the turn failed. Only a
    /// turn that leaves nothing to the engine thread tells the reader which cycles are quiet.
    fileprivate func drainOnReaderThread(_ ring: SPSCRing<EngineInput>, foresight: ReadSchedule.Cues?) -> Bool {
        foresight?.foreseeQuietCycles(0)
        var done = false
        let ran = turn.readerThread {
            guard readerTurnFailure == nil else { return }
            do {
                try drain(ring)
                done = !round.ended && !engineThreadIsWanted(ring)
                if done, let foresight {
                    foresight.foreseeQuietCycles(
                        layers.anchorIsDue ? 0 : engine.quietFixesAhead(limit: ReadSchedule.Cues.mostQuietCycles))
                }
            } catch {
                readerTurnFailure = error
            }
        }
        return ran && done
    }

    /// Whether something besides the inputs waits for the engine thread's round, of what does not
    /// ring the doorbell itself: a stop, reload or position request signal (a signal handler only
    /// sets a flag), an OwnTracks command, inputs the ring dropped, the alive stamp. Asked at each
    /// turn of the reader's, so that while a receiver sends, the engine thread sleeps through what
    /// its timer would otherwise wake it for twice a second.
    private func engineThreadIsWanted(_ ring: SPSCRing<EngineInput>) -> Bool {
        (configuration.stopsOnSignals && StopSignals.isRaised) || ReloadSignal.isPending || RunRequest.isPending
            || layers.hasCommands || alarmAnswersWait || ring.overflow > round.reportedOverflow
            || round.secondsSince(round.lastAlive) > Self.aliveInterval
    }

    /// Seconds between the track writes' checks, which stamp the state file as alive for `status`.
    static let aliveInterval = 5.0

    /// What one run remembers from round to round.
    ///
    /// Its times are `monotonicSeconds()`, a bare `clock_gettime`: the reader's turn reads the clock
    /// twice a fix, and `DispatchTime.now()` through libdispatch was 4% of its samples in `perf`.
    private struct Round {
        var lastInput = monotonicSeconds()
        /// Whether `lastInput` is an input's time, not the start's.
        var receivedInput = false
        var lastAlive = monotonicSeconds()
        var reportedOverflow = 0
        var lastProblem: SourceProblem?
        var stopDeadline: Double?
        var fenceFeeds: [FenceFeed] = []
        var ended = false

        /// A stop signal asks the source to stop and gives it 5 s to end its input.
        mutating func pastStopDeadline(_ source: FixSource, stopsOnSignals: Bool) -> Bool {
            if stopsOnSignals, StopSignals.isRaised, stopDeadline == nil {
                source.stop()
                stopDeadline = monotonicSeconds() + 5
            }
            return stopDeadline.map { monotonicSeconds() > $0 } ?? false
        }

        /// How long the engine thread sleeps when nothing rings: half a second, its timers' pace.
        /// While a live receiver's inputs flow, the reader's turns ring for whatever else is due
        /// (`engineThreadIsWanted`), and the sleep need only notice the receiver falling silent:
        /// 2 s (never more than half of `stale`), the longest a stop signal then waits.
        func timerSleep(live: Bool, stale: Double) -> Double {
            guard live, receivedInput, secondsSince(lastInput) < 1 else { return 0.5 }
            return max(0.5, min(2, stale / 2))
        }

        func secondsSince(_ time: Double) -> Double { monotonicSeconds() - time }
    }

    /// The state file learns that monitoring began, checkpoints move off this thread, and a live
    /// run registers its fences at once (a capture registers them at its first fix).
    private func begin(_ source: FixSource) throws {
        try store?.noteMonitoringStarted(
            fencesPath: configuration.fencesPath ?? "", writeInterval: configuration.trackWriteInterval,
            targets: sinks.compactMap(\.outboxTarget) + (configuration.syncTarget.map { [$0] } ?? []),
            replayed: !source.isLive)
        if !source.isLive {
            let heldThrough = try store?.receiver().lastFixTime
            clock = RunClock(replayFrom: heldThrough.map(UTCTime.init(millisecondsSinceEpoch:)))
        }
        // Checkpoints run beside the engine, not inside the commit that makes an event durable.
        try store?.startBackgroundCheckpoints()
        if source.isLive {
            engine.start(at: currentUTCTime()) { batch.append($0) }
            try flush()
            try beginAlarm()
        }
    }

    /// After a timer's sleep without the doorbell: a live receiver silent for `stale` seconds gives
    /// fix_lost on the wall clock (docs/events.md).
    private func noteSilence(_ source: FixSource) {
        if source.isLive, round.secondsSince(round.lastInput) >= configuration.settings.stale {
            engine.silence(at: currentUTCTime()) { batch.append($0) }
        }
    }

    /// Every input in the ring, in order, each one's events committed and delivered before the next.
    private func drain(_ ring: SPSCRing<EngineInput>) throws {
        while let input = ring.pop() {
            try handle(input)
            try flush()
            if round.ended { return }
        }
    }

    private func handle(_ input: EngineInput) throws {
        switch input {
        case .fix(let fix, let sky):
            // Only the receiver's own data counts as "not silent"; device problems repeat
            // while it is unplugged and must not hold fix_lost back.
            round.lastInput = monotonicSeconds()
            round.receivedInput = true
            summary.fixes += 1
            if let time = fix.time {
                clock.advance(to: time, into: &batch)
                if judgeIntegrity(fix, time: time, sky: sky, flags: fix.receiverFlags) {
                    // Jammed or spoofed: the position decides nothing; the clock still runs.
                    engine.tick(time) { batch.append($0) }
                    return
                }
            }
            switch plausibility.judge(fix) {
            case .believed: try use(fix, afterJump: false)
            case .jumped: try use(fix, afterJump: true)
            case .ignored:
                summary.ignoredFixes = plausibility.ignoredCount
                track?.ignoredFixes = plausibility.ignoredCount
                // Not where the receiver is: only its time counts, as for a cycle without a fix.
                if let time = fix.time { engine.tick(time) { batch.append($0) } }
            }
        case .silentCycle(let cycle, let sky):
            round.lastInput = monotonicSeconds()
            round.receivedInput = true
            if let time = cycle.time {
                clock.advance(to: time, into: &batch)
                _ = judgeIntegrity(nil, time: time, sky: sky, flags: cycle.receiverFlags)
                engine.tick(time) { batch.append($0) }
            }
        case .connected(let device, let detail):
            clock.raise({ .deviceConnected(device, detail: detail, at: $0, wallTime: $1) }, into: &batch)
            round.lastProblem = nil
            try store?.noteDevice(device, detail: detail)
        case .lost(let device, let reason):
            clock.raise({ .deviceLost(device, reason: reason, at: $0, wallTime: $1) }, into: &batch)
        case .problem(let problem):
            // The source retries on its own; say each distinct problem once.
            if problem != round.lastProblem { error(.source(problem)) }
            round.lastProblem = problem
        case .endOfInput:
            round.ended = true
        }
    }

    /// A fix the plausibility check believed: through the engine, the anchor watch, the sinks that
    /// follow the position, and the track.
    private func use(_ fix: Fix, afterJump: Bool) throws {
        lastBelievedFix = fix
        if afterJump {
            engine.process(afterJump: fix) { batch.append($0) }
        } else {
            engine.process(fix) { batch.append($0) }
        }
        noteAnchorDistance(fix)
        try flush()
        try saveQuietStateChanges()
        try noteUsableFix(fix)
        // After the fix: the anchor is laid where the boat is, and entered as a fence that came to
        // it (not as one the run started in).
        if try layers.dropAnchorIfDue(at: fix, maxAccuracy: configuration.settings.maxAccuracy) {
            try replaceFences(with: layers.set, origin: "the anchor watch")
        }
        for sink in fixObservers {
            if afterJump { sink.observeAfterJump(fix) } else { sink.observe(fix) }
        }
        try track?.record(fix, afterJump: afterJump)
        publishLive(fix)
    }

    /// After each round: problems reported off this thread become `error` events, a live run
    /// writes its track when due (which stamps the state file as alive), dropped inputs are said,
    /// and the fences reload if asked.
    private func upkeep(_ source: FixSource, ring: SPSCRing<EngineInput>) throws {
        for problem in reports.take() { error(problem) }
        if source.isLive, round.secondsSince(round.lastAlive) > Self.aliveInterval {
            // `status` tells a live run from one that died by the stamp the track writes carry.
            try track?.flushIfDue()
            try layers.saveAnchorMaxDistanceIfGrown()
            round.lastAlive = monotonicSeconds()
        }
        // Another gpsfence asked (SIGUSR1): `fences add --here` for the last usable fix, written
        // now; `gpsfence ack` for the answer it left in the state file.
        if RunRequest.take() {
            try track?.flush()
            try takeStoredAlarmAnswers()
        }
        if ring.overflow > round.reportedOverflow {
            error(.engine(.fellBehind(dropped: ring.overflow - round.reportedOverflow, ringCapacity: ring.capacity)))
            round.reportedOverflow = ring.overflow
        }
        try takeAlarmAnswers()
        try takeFenceChanges(round.fenceFeeds)
        if try layers.applyCommands() { try replaceFences(with: layers.set, origin: "OwnTracks setWaypoints") }
        try flush()
    }

    /// The end of a run, whatever ended it: the reader stops; sinks with background work (hooks, a
    /// replay's deliveries) end first, within their timeouts, so that what they report (killed,
    /// not run, target down) still becomes `error` events, committed and shown by the other sinks,
    /// before any sink finishes.
    private func shutDown(_ reader: ReaderThread) {
        turn.letReaderRun(false)
        reader.stop()
        // A turn of the reader's that began before it was stopped ends before this one begins.
        turn.engineThread { shutDownAfterTheReader() }
    }

    private func shutDownAfterTheReader() {
        releaseDurable(syncingNow: true)
        try? layers.saveAnchorMaxDistanceIfGrown()
        // The last second of track is in the state file before the track sync's last send.
        try? track?.flush()
        for sink in sinks { sink.stop() }
        for problem in reports.take() { error(problem) }
        clock.releaseWaiting(into: &batch)
        try? flush()
        releaseDurable(syncingNow: true)
        durability?.stop()
        for sink in sinks { sink.finish() }
        // Too late for an event (the sinks are finished): said on standard error, not lost.
        for problem in reports.take() { OutputWriter.standardError.write(line: "gpsfence: \(problem.text)") }
        // The last second of track, and "stopped" for `status`; a failure here loses only that.
        try? track?.flush()
        try? store?.noteStopped()
        store?.stopBackgroundCheckpoints()
    }

    func error(_ problem: Problem) {
        clock.raise({ .error(problem, at: $0, wallTime: $1) }, into: &batch)
    }

    func flush() throws {
        guard !batch.isEmpty else { return }
        try deliver(batch, fences: fences)
        batch.removeAll(keepingCapacity: true)
    }

    /// Commits `events` (rendered against `set`, the fences they refer to) with the fence states
    /// after them, then hands the ones that were new to the sinks.
    func deliver(_ events: [GeofenceEvent], fences set: FenceSet) throws {
        let raised =
            alarms?.respond(
                to: events, fences: set, anchorWatch: layers.layers.anchor != nil || layers.anchorIsDue,
                anchorDistance: anchorDistance) ?? []
        let outgoing = (events + raised).map { OutgoingEvent($0, fences: set) }
        // The alarm's latch rides on the commit of the event that changed it.
        let fresh =
            try store?.commit(
                events: outgoing, insideStates: engine.snapshot(), fences: set, outbox: outboxTargets,
                motion: engine.motionSnapshot, track: track?.batchForEventCommit(),
                alarm: alarms?.takeChange() ?? .none)
            ?? outgoing
        savedQuietStateChanges = engine.quietStateChanges
        for event in fresh {
            summary.events += 1
            for sink in immediateSinks { sink.deliver(event, fences: set) }
        }
        durability?.submit(fresh, fences: set)
        if !fresh.isEmpty { publishLive(nil) }
    }

    /// Saves the fence states when one changed at a fix that raised no event (an exit `delay`'s
    /// count began or broke off), so that a restart carries on from them.
    private func saveQuietStateChanges() throws {
        guard engine.quietStateChanges != savedQuietStateChanges else { return }
        savedQuietStateChanges = engine.quietStateChanges
        try store?.commit(
            events: [], insideStates: engine.snapshot(), fences: fences, outbox: outboxTargets,
            motion: engine.motionSnapshot, track: track?.batchForEventCommit())
    }

    /// Hands the events that are now synced to the sinks that wait for storage.
    private func releaseDurable(syncingNow: Bool = false) {
        guard let durability else { return }
        if syncingNow { durability.syncNow() }
        var released = false
        durability.takeDurable { event, set in
            released = true
            for sink in waitingSinks { sink.deliver(event, fences: set) }
        } problem: { failure in
            error(.engine(.notSynced(failure)))
        }
        if released { for sink in immediateSinks { sink.outboxSynced() } }
    }
}

/// The reader thread of one run: runs the source and pushes its inputs into the ring, ringing the
/// doorbell for each. A source that can wait (a file) waits for room; a live one never does (a full
/// ring drops the input and counts it: docs/architecture.md).
private final class ReaderThread: @unchecked Sendable {
    let doorbell = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let closed = Atomic<Bool>(false)
    private let source: FixSource
    private let ring: SPSCRing<EngineInput>
    /// A live source's turn at the engine (`EngineTurn`): true when what was pushed is handled and
    /// the engine thread need not wake.
    private let drainHere: (@Sendable () -> Bool)?

    init(source: FixSource, ring: SPSCRing<EngineInput>, drainHere: (@Sendable () -> Bool)?) {
        self.source = source
        self.ring = ring
        self.drainHere = drainHere
    }

    func start() {
        let thread = Thread { [self] in
            runThread(named: "gf-reader") {
                source.run(push)
                push(.endOfInput)
                done.signal()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func push(_ input: EngineInput) {
        if source.waitsForRoom {
            // A file waits for the engine and loses nothing: its waits are not drops (a push into
            // a full ring counts one), so none is reported as the engine falling behind.
            while ring.count >= ring.capacity, !closed.load(ordering: .relaxed) { napSeconds(0.0002) }
        }
        ring.push(input)
        if let drainHere, drainHere() { return }
        doorbell.signal()
    }

    /// Asks the source to stop and waits (at most 5 s) for the thread to end.
    func stop() {
        closed.store(true, ordering: .relaxed)
        source.stop()
        _ = done.wait(timeout: .now() + 5)
    }
}

// The sinks read the fence states of the engine that produced the events they are given; the
// loop swaps engines on reload, so it answers for whichever is current.
extension EngineLoop: FenceStateReading {
    public func fenceState(_ fence: Int) -> (inside: Bool, since: UTCTime?) { engine.fenceState(fence) }
    public func registrationTime(_ fence: Int) -> UTCTime? { engine.registrationTime(fence) }
    public var alarmStatus: AlarmStatus? { alarms.map { $0.latch?.status ?? .clear } }
    public var anchorMaxDistance: Double? { layers.anchorMaxDistance }
}

/// The engine loop as the reader thread reaches it: only through `EngineTurn`, which gives one
/// thread at a time the engine, the state file's writer and the sinks. It holds the loop: a reader
/// that outlived `stop()`'s wait still finds it (its turns are refused by then).
private struct ReaderSide: @unchecked Sendable {
    let loop: EngineLoop
    let ring: SPSCRing<EngineInput>
    let foresight: ReadSchedule.Cues?

    func drain() -> Bool { loop.drainOnReaderThread(ring, foresight: foresight) }
}
