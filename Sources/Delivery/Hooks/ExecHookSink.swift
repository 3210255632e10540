import Events
import Fences
import Foundation
import NMEA
import Platform
import Presentation

/// `--exec PROGRAM` (docs/running.md): runs a program per event, without a shell. The event's JSON
/// goes to its standard input, and `GPSFENCE_EVENT`, `GPSFENCE_FENCE_ID`, `GPSFENCE_FENCE_NAME`,
/// `GPSFENCE_LAT`, `GPSFENCE_LON`, `GPSFENCE_TIME` (and `GPSFENCE_EVENT_ID`) into its environment
/// (`HookEnvironment`). Fence names and properties only ever travel as data: no shell parses them.
///
/// `deliver` only queues: at most `concurrency` worker threads each run one hook at a time through
/// the spawn layer (`SupervisedRun`: its own process group, a clean signal mask, its input fed
/// without blocking, the whole group killed past `timeout`), so feeding one hook never waits behind
/// another. When more than `backlog` events wait, new ones are dropped and reported.
///
/// Failures (cannot start, killed, non-zero exit) go to `report` as `Problem.hook` values, which
/// the runtime turns into `error` events, through `HookFailureReports`: such an `error` is never
/// delivered back to the hook it names, and a hook that keeps failing is reported once per
/// `failureReportInterval` with a count.
public final class ExecHookSink: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("ExecHookSink (the engine's turn)")
    public let programs: [String]
    public let timeout: Double
    /// The user's zone, which a fence's conditional limits are read in without its own `timezone`.
    private let localZone: ZoneOffsets
    public let concurrency: Int
    public let backlog: Int
    /// Seconds over which one hook's repeated failures are summed up into one report.
    public var failureReportInterval: Double { reports.interval }
    public static var environmentValueLimit: Int { HookEnvironment.valueLimit }

    private struct Job {
        var program: Int
        var input: [UInt8]
        var environment: [String]
        var eventID: String
    }

    private let reports: HookFailureReports
    /// Guards everything below; workers wait on it for jobs, `stop` for the workers.
    private let lock = NSCondition()
    private var queue: [Job] = []
    private var queueHead = 0
    private var workers = 0
    private var idleWorkers = 0
    private var running = 0
    private var stopping = false
    /// Once stopping: when everything must be over (the stop time plus `timeout`).
    private var stopDeadline = Double.infinity

    /// - Parameter programs: paths, or names looked up in `PATH` (resolved once, here).
    public init(
        programs: [String], timeout: Double = 10, concurrency: Int = 4, backlog: Int = 1000,
        failureReportInterval: Double = 60, localZone: ZoneOffsets = .utc,
        report: @escaping @Sendable (Problem) -> Void
    ) throws(HookError) {
        self.localZone = localZone
        self.programs = try programs.map { program throws(HookError) in try Self.resolve(program) }
        self.timeout = timeout
        self.concurrency = max(1, concurrency)
        self.backlog = backlog
        reports = HookFailureReports(programs: programs, interval: failureReportInterval, report: report)
        // A hook that exits without reading its input closes the pipe under our write; that must
        // be an error for that hook (EPIPE), not the death of the whole process. (Hooks themselves
        // get SIGPIPE back at its default: see `ChildProcess.spawn`.)
        ignoreBrokenPipes()
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        let environment = HookEnvironment.variables(for: event, fences: fences, localZone: localZone).map {
            $0.key + "=" + $0.value
        }
        let input = Array((event.json + "\n").utf8)
        var dropped: [Int] = []
        lock.lock()
        if stopping {
            lock.unlock()
            return
        }
        for index in programs.indices {
            if case .error(let problem, _) = event.event.payload, reports.isOwnReport(problem, of: index) {
                // This hook's own failure: running it again on it is how a failing hook fed on itself.
                continue
            }
            guard queue.count - queueHead + running < backlog else {
                dropped.append(index)
                continue
            }
            queue.append(Job(program: index, input: input, environment: environment, eventID: event.id))
            if idleWorkers > 0 {
                lock.signal()
            } else if workers < concurrency {
                workers += 1
                let worker = Thread { [self] in
                    runThread(named: "gf-hook") {
                        work()
                    }
                }
                worker.start()
            }
        }
        lock.unlock()
        for index in dropped {
            reports.failed(index, .dropped(waiting: backlog, kind: event.event.kind, eventID: event.id))
        }
    }

    /// Stops within `timeout` plus half a second (SIGTERM with hung hooks queued took
    /// 43 s). Queued events keep running until `timeout` seconds from now; then what is still queued
    /// is not run (reported, one line per hook with a count), running hooks are killed (reported),
    /// and failures held back for the interval are reported. The runtime calls this before it stops
    /// the other sinks, so these reports still become `error` events on the console and in the
    /// state file. New events are not taken any more.
    public func stop() {
        lock.lock()
        if stopping {
            lock.unlock()
            return
        }
        stopping = true
        stopDeadline = monotonicSeconds() + timeout
        lock.broadcast()
        while queueHead < queue.count || running > 0, monotonicSeconds() < stopDeadline {
            _ = lock.wait(untilMonotonic: stopDeadline)
        }
        var notRun = Array(repeating: 0, count: programs.count)
        for job in queue[queueHead...] { notRun[job.program] += 1 }
        queue.removeAll()
        queueHead = 0
        lock.broadcast()
        // Hooks still running see the deadline has passed and are killed within the grace.
        while workers > 0 { lock.wait() }
        lock.unlock()
        for (index, count) in notRun.enumerated() where count > 0 {
            reports.send(index, .notRunAtStop(count: count))
        }
        reports.flushAll()
    }

    /// Waits for the hooks already started (at the end of a run), bounded as `stop` is.
    public func finish() { stop() }

    // MARK: - Workers

    private func work() {
        lock.lock()
        while true {
            while queueHead == queue.count && !stopping {
                idleWorkers += 1
                lock.wait()
                idleWorkers -= 1
            }
            if queueHead == queue.count || monotonicSeconds() >= stopDeadline {
                workers -= 1
                lock.broadcast()
                lock.unlock()
                return
            }
            let job = queue[queueHead]
            queueHead += 1
            if queueHead > 1024, queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            running += 1
            lock.unlock()
            run(job)
            lock.lock()
            running -= 1
            lock.broadcast()
        }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private var currentStopDeadline: Double {
        lock.lock()
        defer { lock.unlock() }
        return stopDeadline
    }

    private func run(_ job: Job) {
        let program = programs[job.program]
        var child = SupervisedRun(
            program: program, environment: job.environment, output: .standardError, timeout: timeout)
        child.input = job.input
        let outcome = child.run(deadline: { self.currentStopDeadline }, grace: { self.isStopping ? 0.5 : 1.0 })
        switch outcome {
        case .couldNotStart(let error):
            reports.failed(job.program, .couldNotStart(error))
        case .exited(let status):
            if let signal = status.signal {
                reports.failed(job.program, .killedBySignal(signal, eventID: job.eventID))
            } else if let code = status.code, code != 0 {
                reports.failed(job.program, .exited(status: code, eventID: job.eventID))
            }
        case .killed(let cutByStop):
            reports.failed(
                job.program,
                cutByStop
                    ? .killedAtStop(limit: timeout, eventID: job.eventID)
                    : .timedOut(limit: timeout, eventID: job.eventID, whileStopping: isStopping))
        }
    }

    /// A path as given, or the first executable of that name in `PATH`.
    static func resolve(_ program: String) throws(HookError) -> String {
        switch ProgramLookup.resolve(program, path: ProcessInfo.processInfo.environment["PATH"]) {
        case .success(let path): return path
        case .failure(let cause): throw HookError(program: program, cause: cause)
        }
    }
}
