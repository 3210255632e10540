import Foundation
import Geofence
import NMEA
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--exec PROGRAM` (SPEC §7): runs a program per event, without a shell. The event's JSON goes to
/// its standard input, and `GPSFENCE_EVENT`, `GPSFENCE_FENCE_ID`, `GPSFENCE_FENCE_NAME`,
/// `GPSFENCE_LAT`, `GPSFENCE_LON`, `GPSFENCE_TIME` (and `GPSFENCE_EVENT_ID`) into its environment.
/// Fence names and properties only ever travel as data: no shell parses them.
///
/// `deliver` only queues: at most `concurrency` worker threads each run one hook at a time, and
/// each worker writes its hook's input itself, so feeding one hook never waits behind another
/// (issue 15). A hook is started with `posix_spawn` in a process group of its own, with an empty
/// signal mask and default signal dispositions; past `timeout` seconds the whole group (the hook's
/// own children too) gets SIGTERM, then SIGKILL. When more than `backlog` events wait, new ones are
/// dropped and reported.
///
/// Failures (cannot start, killed, non-zero exit) go to `report`, which the runtime turns into
/// `error` events. Such an `error` is never delivered back to the hook that caused it, and a hook
/// that keeps failing is reported once per `failureReportInterval` with a count, so a failing hook
/// cannot feed on its own failures.
public final class ExecHookSink: EventSink, @unchecked Sendable {
    public let programs: [String]
    public let timeout: Double
    public let concurrency: Int
    public let backlog: Int
    /// Seconds over which one hook's repeated failures are summed up into one report.
    public let failureReportInterval: Double
    /// The most bytes of each `GPSFENCE_*` value (issue 15): a 200 KB fence name would push the
    /// environment past the kernel's limit and the hook would not start at all. The whole event is
    /// on standard input in any case.
    public static let environmentValueLimit = 4096

    private struct Job {
        var program: Int
        var input: [UInt8]
        var environment: [String]
        var eventID: String
    }

    /// One hook's failures, for the once-per-interval reports.
    private struct Failures {
        var lastReport: Double?
        var suppressed = 0
        var lastMessage = ""
        var flushScheduled = false
    }

    private let report: @Sendable (String) -> Void
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
    private var failures: [Failures]
    /// Messages this sink reported, by the program they are about: the `error` events made of them
    /// are not delivered back to that program.
    private var ownReports: [String: Int] = [:]

    /// - Parameter programs: paths, or names looked up in `PATH` (resolved once, here).
    public init(
        programs: [String], timeout: Double = 10, concurrency: Int = 4, backlog: Int = 1000,
        failureReportInterval: Double = 60, report: @escaping @Sendable (String) -> Void
    ) throws(HookError) {
        self.programs = try programs.map { program throws(HookError) in try Self.resolve(program) }
        self.timeout = timeout
        self.concurrency = max(1, concurrency)
        self.backlog = backlog
        self.failureReportInterval = failureReportInterval
        self.report = report
        failures = Array(repeating: Failures(), count: programs.count)
        // A hook that exits without reading its input closes the pipe under our write; that must
        // be an error for that hook (EPIPE), not the death of the whole process. (Hooks themselves
        // get SIGPIPE back at its default: see `spawn`.)
        signal(SIGPIPE, SIG_IGN)
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let environment = Self.environment(for: event, fences: fences).map { $0.key + "=" + $0.value }
        let input = Array((event.json + "\n").utf8)
        var dropped: [Int] = []
        lock.lock()
        if stopping {
            lock.unlock()
            return
        }
        for index in programs.indices {
            if event.event.kind == .error, let message = event.event.message, ownReports[message] == index {
                // This hook's own failure: running it again on it is how a failing hook fed on itself.
                ownReports[message] = nil
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
                let worker = Thread { [self] in work() }
                worker.name = "gpsfence hook"
                worker.start()
            }
        }
        lock.unlock()
        for index in dropped {
            failed(
                index,
                "hook \(programs[index]): \(backlog) events already waiting, \(event.event.kind.rawValue) event \(event.id) dropped"
            )
        }
    }

    /// Stops within `timeout` plus half a second (issue 15: SIGTERM with hung hooks queued took
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
            _ = lock.wait(until: Date(timeIntervalSinceNow: max(0.001, stopDeadline - monotonicSeconds())))
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
            send(
                index,
                "hook \(programs[index]): \(count) queued event\(count == 1 ? "" : "s") not run: gpsfence is stopping")
        }
        for index in programs.indices { flushFailures(index) }
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
        let started = monotonicSeconds()
        let pid: pid_t
        let input: Int32
        switch Self.spawn(program, environment: job.environment) {
        case .failure(let error):
            failed(job.program, "hook \(program) could not start: \(String(cString: strerror(error.rawValue)))")
            return
        case .success(let child):
            (pid, input) = child
        }
        var writer = InputWriter(fd: input, bytes: job.input)
        let deadline = started + timeout
        while true {
            if let status = Self.exitStatus(pid, reap: true) {
                writer.close()
                if let problem = Self.describe(status) {
                    failed(job.program, "hook \(program) \(problem) for event \(job.eventID)")
                }
                return
            }
            let now = monotonicSeconds()
            let limit = min(deadline, currentStopDeadline)
            if now >= limit { break }
            // Waits for room in the pipe (or up to 5 ms while it is written or closed): a hook's
            // exit is seen within that, without a thread per hook blocked in waitpid.
            writer.pump(waitingAtMost: min(0.005, limit - now))
        }
        writer.close()
        // Past the timeout: the whole process group, so that the hook's own children go too. The
        // leader is not reaped until the group has had SIGKILL: while it is a zombie its group id
        // cannot be reused by another process.
        kill(-pid, SIGTERM)
        let grace = isStopping ? 0.5 : 1.0
        let graceEnd = monotonicSeconds() + grace
        while Self.exitStatus(pid, reap: false) == nil, monotonicSeconds() < graceEnd { usleep(5_000) }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        // Killed by the stop deadline well before its own timeout: say so.
        let cutByStop = currentStopDeadline < deadline - 0.1
        failed(
            job.program,
            cutByStop
                ? "hook \(program) was still running for event \(job.eventID) \(Self.seconds(timeout)) after gpsfence began to stop, and was killed"
                : "hook \(program) took longer than \(Self.seconds(timeout)) for event \(job.eventID) and was killed"
                    + (isStopping ? " (gpsfence is stopping)" : ""))
    }

    /// Writes a hook's standard input without ever blocking: the write end is non-blocking and
    /// `pump` waits for room with `poll`.
    struct InputWriter {
        var fd: Int32
        let bytes: [UInt8]
        var written = 0

        init(fd: Int32, bytes: [UInt8]) {
            self.fd = fd
            self.bytes = bytes
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        /// Writes what fits; waits at most `seconds` for room (or just sleeps when all is written).
        mutating func pump(waitingAtMost seconds: Double) {
            let milliseconds = Int32(max(1, min(seconds * 1000, 1000)))
            guard fd >= 0 else {
                usleep(useconds_t(milliseconds) * 1000)
                return
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            guard ready > 0 else { return }
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                }
                if count > 0 {
                    written += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    return
                } else {
                    // EPIPE: the hook closed its input (or exited) without reading it all.
                    close()
                    return
                }
            }
            close()
        }

        mutating func close() {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }

    // MARK: - Reports

    /// Reports a failure of hook `index`: the first at once, later ones within
    /// `failureReportInterval` summed up into one report at the end of the interval.
    private func failed(_ index: Int, _ message: String) {
        let now = monotonicSeconds()
        lock.lock()
        var state = failures[index]
        if let last = state.lastReport, now - last < failureReportInterval {
            state.suppressed += 1
            state.lastMessage = message
            let schedule = !state.flushScheduled && !stopping
            state.flushScheduled = state.flushScheduled || schedule
            failures[index] = state
            lock.unlock()
            if schedule {
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, last + failureReportInterval - now)) {
                    [weak self] in self?.flushFailures(index)
                }
            }
            return
        }
        state.lastReport = now
        failures[index] = state
        lock.unlock()
        send(index, message)
    }

    /// Reports the failures of hook `index` held back so far, if any.
    private func flushFailures(_ index: Int) {
        lock.lock()
        var state = failures[index]
        state.flushScheduled = false
        let count = state.suppressed
        let last = state.lastMessage
        if count > 0 {
            state.suppressed = 0
            state.lastReport = monotonicSeconds()
        }
        failures[index] = state
        lock.unlock()
        guard count > 0 else { return }
        send(
            index,
            "hook \(programs[index]) failed \(count) more time\(count == 1 ? "" : "s") "
                + "(at most one report per \(Self.seconds(failureReportInterval))); the last: \(last)")
    }

    private func send(_ index: Int, _ message: String) {
        lock.lock()
        ownReports[message] = index
        lock.unlock()
        report(message)
    }

    // MARK: - Processes

    /// Starts `program` with `environment`, its standard input a new pipe (returned: the write
    /// end), its standard output and error ours (standard error). The child gets:
    /// - a process group of its own (`POSIX_SPAWN_SETPGROUP`), so the timeout can kill its
    ///   children too;
    /// - an empty signal mask and every signal at its default disposition (`POSIX_SPAWN_SETSIGMASK`,
    ///   `POSIX_SPAWN_SETSIGDEF`): the spawning thread may block signals (worker threads often do)
    ///   and we ignore SIGPIPE, and a hook must not inherit either, or SIGTERM cannot stop it;
    /// - no other file descriptors of ours (`posix_spawn_file_actions_addclosefrom_np`).
    /// The corresponding C functions are `pipe2` and `posix_spawn`.
    static func spawn(_ program: String, environment: [String]) -> Result<(pid: pid_t, input: Int32), SpawnError> {
        var pipeEnds: [Int32] = [-1, -1]
        // Close-on-exec from the start (pipe2): another thread spawning at the same moment must
        // not take our pipe into its child.
        guard GNU.pipe2(&pipeEnds, O_CLOEXEC) == 0 else { return .failure(SpawnError(rawValue: errno)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        _ = GNU.addCloseFrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        sigdelset(&allSignals, SIGKILL)
        sigdelset(&allSignals, SIGSTOP)
        // glibc's sigfillset leaves out its two internal signals (32 and 33, SIGCANCEL and
        // SIGSETXID) and its posix_spawn then sets them to SIG_IGN in the child, which exec keeps:
        // a non-glibc hook would start with them ignored. Their bits, set by hand, ask for SIG_DFL.
        allSignals.__val.0 |= 1 << 31 | 1 << 32
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(program), nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        let result = posix_spawn(&pid, program, &actions, &attributes, arguments, variables)
        Glibc.close(pipeEnds[0])
        guard result == 0 else {
            Glibc.close(pipeEnds[1])
            return .failure(SpawnError(rawValue: result))
        }
        return .success((pid, pipeEnds[1]))
    }

    /// The child's wait status once it has exited, else nil. `reap: false` leaves it a zombie
    /// (`WNOWAIT`), which keeps its process group id from being reused.
    static func exitStatus(_ pid: pid_t, reap: Bool) -> Int32? {
        if reap {
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, WNOHANG) } while result < 0 && errno == EINTR
            return result == pid ? status : nil
        }
        var info = siginfo_t()
        var result: Int32
        repeat {
            result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT)
        } while result < 0 && errno == EINTR
        return result == 0 && info._sifields._kill.si_pid == pid ? 0 : nil
    }

    /// nil for a clean exit, else what went wrong.
    static func describe(_ status: Int32) -> String? {
        let signal = status & 0x7F
        if signal == 0 {
            let code = (status >> 8) & 0xFF
            return code == 0 ? nil : "exited with status \(code)"
        }
        return "was killed by signal \(signal)"
    }

    // MARK: - Environment

    /// The hook's environment: ours, plus the event's fields, each value bounded
    /// (`environmentValueLimit`).
    static func environment(for outgoing: OutgoingEvent, fences: FenceSet) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let event = outgoing.event
        environment["GPSFENCE_EVENT"] = event.kind.rawValue
        environment["GPSFENCE_EVENT_ID"] = bounded(outgoing.id)
        environment["GPSFENCE_TIME"] = event.time.description
        if let fence = event.fence {
            environment["GPSFENCE_FENCE_ID"] = bounded(fences.ids[fence].text)
            environment["GPSFENCE_FENCE_NAME"] = bounded(fences.name(fence) ?? "")
        }
        if let location = event.location {
            environment["GPSFENCE_LAT"] = location.latitude.description
            environment["GPSFENCE_LON"] = location.longitude.description
        }
        return environment
    }

    /// `value` as an environment value: NUL characters dropped (a C string cannot hold them) and cut
    /// to at most `environmentValueLimit` bytes of UTF-8, at a character boundary.
    static func bounded(_ value: String) -> String {
        var utf8 = Array(value.utf8)
        utf8.removeAll { $0 == 0 }
        guard utf8.count > environmentValueLimit else {
            return utf8.count == value.utf8.count ? value : String(decoding: utf8, as: UTF8.self)
        }
        var end = environmentValueLimit
        // Back up over continuation bytes (10xxxxxx) to the start of the character that does not fit.
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    // MARK: - Programs

    /// A path as given, or the first executable of that name in `PATH`.
    static func resolve(_ program: String) throws(HookError) -> String {
        if program.contains("/") {
            guard isExecutable(program) else {
                throw HookError(message: "--exec \(program): not an executable file")
            }
            return program
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = String(folder) + "/" + program
            if isExecutable(candidate) { return candidate }
        }
        throw HookError(message: "--exec \(program): no such program in PATH")
    }

    /// A regular file with an execute bit (root passes `access(X_OK)` for any file, so the mode
    /// bits are checked themselves).
    static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return info.st_mode & 0o111 != 0
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value)) s" : "\(value) s"
    }
}

/// glibc functions declared only under `_GNU_SOURCE`, which Swift's Glibc module does not define;
/// looked up once with `dlsym`.
enum GNU {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let pipe2Function: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    static let addCloseFromFunction: AddCloseFrom? =
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// `pipe2(fds, flags)`; without it, `pipe` and `FD_CLOEXEC` set right after.
    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        if let function = pipe2Function { return function(fds, flags) }
        guard Glibc.pipe(fds) == 0 else { return -1 }
        for index in 0..<2 { _ = fcntl(fds[index], F_SETFD, FD_CLOEXEC) }
        return 0
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): the child gets no descriptor of
    /// ours from `from` on. Without it, only close-on-exec descriptors stay behind.
    static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32 {
        addCloseFromFunction?(actions, from) ?? 0
    }
}

/// Why `posix_spawn` (or `pipe2`) failed: an `errno` value.
struct SpawnError: Error, Sendable {
    let rawValue: Int32
}

/// A hook that cannot be used as given.
public struct HookError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
