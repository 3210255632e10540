import Alerts
import Dispatch
import Foundation
import Geofence
import NMEA
import Serial
import Store
import Synchronization

/// What the reader thread hands the engine thread in a live run.
enum LiveInput {
    case fix(Fix)
    case silentCycle(EpochTime)
    case connected(path: String, rate: BaudRate?)
    case lost(path: String, reason: String)
    case problem(String)
}

/// `gpsfence run` (SPEC §2, §9): a reader thread owns the serial device and turns bytes into
/// fixes; it pushes them into a fixed-capacity ring (never blocking, overflow counted and
/// reported); the engine thread (the caller's) drains the ring, advances the fences, commits each
/// fix's events to the state file and hands them to the sinks. Slow sinks work off this thread.
///
/// SIGINT/SIGTERM stop it cleanly (sinks flushed, the store closed). SIGHUP, or a change of the
/// fence file, reloads the fences: `unregistered` for the fences that are gone, `registered` for the
/// new set, and unchanged fences (same id and geometry) keep their state; a reload that fails keeps
/// the old fences and reports an `error`.
public final class RunJob {
    public struct Options {
        public var device: DeviceChoice
        public var rate: BaudRate?
        public var autobaud = Autobaud()
        public var fencesPath: String
        public var statePath: String
        public var settings = EventSettings()
        public var ringCapacity = 1024
        public var rollover = WeekRollover.live(today: currentUTCTime().date)

        public init(device: DeviceChoice, fencesPath: String, statePath: String) {
            self.device = device
            self.fencesPath = fencesPath
            self.statePath = statePath
        }
    }

    public let options: Options
    private let sinks: [EventSink]
    private let webhookEndpoints: [String]
    private let reports = ProblemReports()

    /// - Parameters:
    ///   - makeSinks: builds the sinks, given the function they report problems through.
    public init(options: Options, webhooks: [String] = [], makeSinks: (@escaping @Sendable (String) -> Void) throws -> [EventSink])
        rethrows
    {
        self.options = options
        webhookEndpoints = webhooks
        sinks = try makeSinks(reports.report)
    }

    /// Runs until SIGINT or SIGTERM. Bad fence or state files throw `InputError` before anything
    /// starts.
    public func run() throws {
        var fences = try FenceFile.load(options.fencesPath)
        let store: StateStore
        do { store = try StateStore(path: options.statePath) } catch { throw InputError(message: error.description) }
        let webhooks: [WebhookDelivery]
        do {
            webhooks = try webhookEndpoints.map { endpoint throws(WebhookError) in
                try WebhookDelivery(endpoint: endpoint, store: store, report: reports.report)
            }
        } catch { throw InputError(message: error.description) }

        var engine = EventEngine(fences: fences, settings: options.settings)
        engine.restore(try store.fenceStates())
        let pipeline = EventPipeline(fences: fences, store: store, sinks: sinks, webhooks: webhooks)
        for webhook in webhooks { webhook.start() }

        StopSignals.install()
        ReloadSignal.install()
        var fenceFileStamp = FenceFileStamp(path: options.fencesPath)

        let ring = SPSCRing<LiveInput>(capacity: options.ringCapacity)
        let doorbell = DispatchSemaphore(value: 0)
        var configuration = Reader.Configuration(path: options.device.path, rate: options.rate)
        configuration.autobaud = options.autobaud
        let source = LiveFixSource(configuration, rollover: options.rollover)
        let readerDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            source.run { event in
                let input: LiveInput =
                    switch event {
                    case .fix(let fix): .fix(fix)
                    case .silentCycle(let cycle): .silentCycle(cycle)
                    case .deviceConnected(let path, let rate): .connected(path: path, rate: rate)
                    case .deviceLost(let path, let reason): .lost(path: path, reason: reason)
                    case .problem(let message): .problem(message)
                    }
                // Never blocks: a full ring drops the input and counts it (SPEC §2).
                ring.push(input)
                doorbell.signal()
            }
            readerDone.signal()
        }
        reader.name = "gpsfence reader"
        reader.start()

        var batch: [GeofenceEvent] = []
        let collect: (GeofenceEvent) -> Void = { batch.append($0) }
        engine.start(at: currentUTCTime(), collect)
        try pipeline.deliver(batch, insideStates: engine.snapshot())
        batch.removeAll()
        var lastInput = DispatchTime.now()
        var reportedOverflow = 0
        var lastProblem: String?

        func flush() throws {
            guard !batch.isEmpty else { return }
            try pipeline.deliver(batch, insideStates: engine.snapshot())
            batch.removeAll(keepingCapacity: true)
        }
        func error(_ message: String) {
            var event = GeofenceEvent(kind: .error, time: currentUTCTime())
            event.message = message
            batch.append(event)
        }

        while !StopSignals.isRaised {
            if doorbell.wait(timeout: .now() + 0.5) == .timedOut,
               Double(DispatchTime.now().uptimeNanoseconds - lastInput.uptimeNanoseconds) / 1e9 >= options.settings.stale
            {
                // The receiver fell silent for `stale` seconds: fix_lost on the wall clock (SPEC §6).
                engine.silence(at: currentUTCTime(), collect)
            }
            while let input = ring.pop() {
                switch input {
                case .fix(let fix):
                    // Only the receiver's own data counts as "not silent"; device problems repeat
                    // while it is unplugged and must not hold fix_lost back.
                    lastInput = DispatchTime.now()
                    engine.process(fix, collect)
                case .silentCycle(let cycle):
                    lastInput = DispatchTime.now()
                    if let time = cycle.time { engine.tick(time, collect) }
                case .connected(let path, let rate):
                    var event = GeofenceEvent(kind: .deviceConnected, time: currentUTCTime())
                    event.message = path + (rate.map { " at \($0) baud" } ?? "")
                    batch.append(event)
                    lastProblem = nil
                case .lost(let path, let reason):
                    var event = GeofenceEvent(kind: .deviceLost, time: currentUTCTime())
                    event.message = "\(path): \(reason)"
                    batch.append(event)
                case .problem(let message):
                    // The reader retries on its own; say each distinct problem once.
                    if message != lastProblem { error(message) }
                    lastProblem = message
                }
                try flush()
            }
            for message in reports.take() { error(message) }
            if ring.overflow > reportedOverflow {
                error("the engine fell behind: \(ring.overflow - reportedOverflow) fixes dropped (ring of \(ring.capacity))")
                reportedOverflow = ring.overflow
            }
            if ReloadSignal.take() || fenceFileStamp.changed() {
                reload(&fences, &engine, pipeline, collect: { batch.append($0) })
            }
            try flush()
        }

        source.stop()
        _ = readerDone.wait(timeout: .now() + 5)
        for webhook in webhooks { webhook.stop() }
        // Hooks end first, within their timeout: what they report (killed, not run) still becomes
        // `error` events on the console and in the state file before the other sinks finish.
        pipeline.stopSinks()
        for message in reports.take() { error(message) }
        try? flush()
        pipeline.finish()
    }

    private func reload(
        _ fences: inout FenceSet, _ engine: inout EventEngine, _ pipeline: EventPipeline,
        collect: (GeofenceEvent) -> Void
    ) {
        let now = currentUTCTime()
        let fresh: FenceSet
        do {
            fresh = try FenceFile.load(options.fencesPath)
        } catch {
            var event = GeofenceEvent(kind: .error, time: now)
            event.message = "reload failed, keeping the \(fences.count) fences loaded: \(error.message)"
            collect(event)
            return
        }
        let kept = Set(fresh.ids)
        let gone = (0..<fences.count).filter { !kept.contains(fences.ids[$0]) }
        if !gone.isEmpty {
            var event = GeofenceEvent(kind: .unregistered, time: now)
            event.fences = gone
            try? pipeline.deliver([event], insideStates: engine.snapshot(), fences: fences)
        }
        let next = EventEngine(fences: fresh, settings: options.settings)
        // Same id and geometry: the state carries over; changed fences start fresh.
        next.restore(engine.snapshot())
        engine = next
        fences = fresh
        pipeline.replaceFences(fresh)
        next.start(at: now, collect)
    }
}

/// SIGHUP as a flag the engine loop takes.
enum ReloadSignal {
    private static let raised = Atomic<Bool>(false)

    /// The corresponding C function is `sigaction`.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in ReloadSignal.raised.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGHUP, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func take() -> Bool { raised.exchange(false, ordering: .relaxed) }
}

/// Notices a change of the fence file (modification time or size), checked at most once a second.
struct FenceFileStamp {
    let path: String
    private var stamp: (Int, Int, Int64)?
    private var lastCheck = DispatchTime.now()

    init(path: String) {
        self.path = path
        stamp = Self.read(path)
    }

    mutating func changed() -> Bool {
        let now = DispatchTime.now()
        guard now.uptimeNanoseconds - lastCheck.uptimeNanoseconds >= 1_000_000_000 else { return false }
        lastCheck = now
        let current = Self.read(path)
        guard let current, let previous = stamp else { return false }
        stamp = current
        return current != previous
    }

    static func read(_ path: String) -> (Int, Int, Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int64(info.st_size))
    }
}
