#if canImport(Glibc)
    import Glibc
#endif

/// One child run from start to end under a time limit: the one way gpsfence runs a program (exec
/// hooks, notify-send). The input is fed while the child runs; past the limit the child's whole
/// process group gets SIGTERM, then, after a grace, SIGKILL.
public struct SupervisedRun: Sendable {
    public var program: String
    public var arguments: [String] = []
    public var environment: [String]
    public var input: [UInt8] = []
    public var output: ChildProcess.Output
    /// Seconds the child may run.
    public var timeout: Double

    public enum Outcome: Sendable, Equatable {
        case couldNotStart(SpawnError)
        case exited(ExitStatus)
        /// Killed at the limit; `byDeadline` when an earlier outside deadline (a stop) cut it short.
        case killed(byDeadline: Bool)
    }

    public init(program: String, environment: [String], output: ChildProcess.Output, timeout: Double) {
        self.program = program
        self.environment = environment
        self.output = output
        self.timeout = timeout
    }

    /// Runs the child to its end on the calling thread.
    /// - Parameters:
    ///   - deadline: an outside limit on the monotonic clock (a stop), read while the child runs;
    ///     the child is killed at whichever of it and `timeout` comes first.
    ///   - grace: seconds between SIGTERM and SIGKILL.
    public func run(deadline: () -> Double = { .infinity }, grace: () -> Double = { 1 }) -> Outcome {
        let started = monotonicSeconds()
        let child: ChildProcess
        var feeder: InputFeeder
        switch ChildProcess.spawn(program, arguments: arguments, environment: environment, output: output) {
        case .failure(let error): return .couldNotStart(error)
        case .success(let spawned):
            child = spawned.child
            feeder = InputFeeder(fd: spawned.input, bytes: input)
        }
        let ownLimit = started + timeout
        while true {
            if let status = child.exitStatus(reap: true) {
                feeder.close()
                return .exited(status)
            }
            let now = monotonicSeconds()
            let limit = min(ownLimit, deadline())
            if now >= limit { break }
            // Waits for room in the pipe (or up to 5 ms while it is written or closed): an exit is
            // seen within that, without a thread per child blocked in waitpid.
            feeder.pump(waitingAtMost: min(0.005, limit - now))
        }
        feeder.close()
        // The leader is not reaped until the group has had SIGKILL: while it is a zombie its group
        // id cannot be reused by another process.
        child.signalGroup(SIGTERM)
        let graceEnd = monotonicSeconds() + grace()
        while child.exitStatus(reap: false) == nil, monotonicSeconds() < graceEnd { usleep(5_000) }
        child.signalGroup(SIGKILL)
        child.reap()
        return .killed(byDeadline: deadline() < ownLimit - 0.1)
    }
}
