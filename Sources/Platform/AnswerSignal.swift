import Glibc

/// SIGUSR1 to a `run`: "an answer to the alarm waits in the state file" (docs/running.md, "Alarms").
/// `gpsfence ack` writes the answer, then sends this to the pid that holds the state file's lock,
/// so that the run looks at once instead of reading the file on a timer.
public enum AnswerSignal {
    /// The run catches it as a flag (without it, SIGUSR1 would end the process).
    public static func install() { CaughtSignals.install([SIGUSR1], restartsCalls: true) }

    /// Whether one came since the last `take`; clears it.
    public static func take() -> Bool { CaughtSignals.take(SIGUSR1) }

    public static var isPending: Bool { CaughtSignals.isPending(SIGUSR1) }

    /// Tells process `pid`; false when there is no such process (or it is not ours to signal).
    /// The corresponding C function is `kill`.
    public static func send(to pid: Int32) -> Bool { kill(pid, SIGUSR1) == 0 }
}
