import Foundation
import Geofence
import Synchronization

/// `--exec PROGRAM` (SPEC §7): runs a program per event, without a shell. The event's JSON goes to
/// its standard input, and `GPSFENCE_EVENT`, `GPSFENCE_FENCE_ID`, `GPSFENCE_FENCE_NAME`,
/// `GPSFENCE_LAT`, `GPSFENCE_LON`, `GPSFENCE_TIME` (and `GPSFENCE_EVENT_ID`) into its environment.
/// Fence names and properties only ever travel as data: no shell parses them.
///
/// `deliver` only queues: hooks run on their own threads, at most `concurrency` at once, each
/// killed after `timeout` seconds, so a slow or hanging hook never stalls the engine. When more
/// than `backlog` events wait, new ones are dropped and reported. Failures (cannot start, killed,
/// non-zero exit) go to `report`, which the runtime turns into `error` events.
public final class ExecHookSink: EventSink, @unchecked Sendable {
    public let programs: [String]
    public let timeout: Double
    public let concurrency: Int
    public let backlog: Int
    private let report: @Sendable (String) -> Void
    private let slots: DispatchSemaphore
    private let queue = DispatchQueue(label: "gpsfence.exec", attributes: .concurrent)
    private let group = DispatchGroup()
    private let waiting = Mutex(0)

    /// - Parameter programs: paths, or names looked up in `PATH` (resolved once, here).
    public init(
        programs: [String], timeout: Double = 10, concurrency: Int = 4, backlog: Int = 1000,
        report: @escaping @Sendable (String) -> Void
    ) throws(HookError) {
        self.programs = try programs.map { program throws(HookError) in try Self.resolve(program) }
        self.timeout = timeout
        self.concurrency = concurrency
        self.backlog = backlog
        self.report = report
        slots = DispatchSemaphore(value: concurrency)
        // A hook that exits without reading its input closes the pipe under our write; that must
        // be an error for that hook (EPIPE), not the death of the whole process.
        signal(SIGPIPE, SIG_IGN)
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let environment = Self.environment(for: event, fences: fences)
        let input = Data((event.json + "\n").utf8)
        for program in programs {
            let accepted = waiting.withLock { count -> Bool in
                guard count < backlog else { return false }
                count += 1
                return true
            }
            guard accepted else {
                report("hook \(program): \(backlog) events already waiting, \(event.event.kind.rawValue) event \(event.id) dropped")
                continue
            }
            queue.async(group: group) { [self] in
                slots.wait()
                defer {
                    slots.signal()
                    waiting.withLock { $0 -= 1 }
                }
                run(program, input: input, environment: environment, eventID: event.id)
            }
        }
    }

    /// Waits for the hooks already started or queued (at the end of a run).
    public func finish() { group.wait() }

    private func run(_ program: String, input: Data, environment: [String: String], eventID: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = []
        process.environment = environment
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
        } catch {
            report("hook \(program) could not start: \(error.localizedDescription)")
            return
        }
        // A hook that does not read its input must not block us: write on the side.
        DispatchQueue.global().async {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            if exited.wait(timeout: .now() + 1) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
            report("hook \(program) took longer than \(Self.seconds(timeout)) for event \(eventID) and was killed")
            return
        }
        if process.terminationReason == .uncaughtSignal {
            report("hook \(program) was killed by signal \(process.terminationStatus) for event \(eventID)")
        } else if process.terminationStatus != 0 {
            report("hook \(program) exited with status \(process.terminationStatus) for event \(eventID)")
        }
    }

    /// The hook's environment: ours, plus the event's fields.
    static func environment(for outgoing: OutgoingEvent, fences: FenceSet) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let event = outgoing.event
        environment["GPSFENCE_EVENT"] = event.kind.rawValue
        environment["GPSFENCE_EVENT_ID"] = outgoing.id
        environment["GPSFENCE_TIME"] = event.time.description
        if let fence = event.fence {
            switch fences.ids[fence] {
            case .number(let text), .string(let text): environment["GPSFENCE_FENCE_ID"] = text
            }
            environment["GPSFENCE_FENCE_NAME"] = fences.name(fence) ?? ""
        }
        if let location = event.location {
            environment["GPSFENCE_LAT"] = location.latitude.description
            environment["GPSFENCE_LON"] = location.longitude.description
        }
        return environment
    }

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
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// A hook that cannot be used as given.
public struct HookError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
