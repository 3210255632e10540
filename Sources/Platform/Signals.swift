import Glibc
import Synchronization

/// Signals as flags that the long-running loops poll, so that they finish their files, flush their
/// sinks and close their devices instead of dying mid-write.
package enum CaughtSignals {
    /// One bit per signal number, set by the handler.
    private static let pending = Atomic<UInt64>(0)

    /// Installs a handler that sets the signal's bit, and unblocks the signals: a parent may have
    /// started us with them blocked (a spawning thread's mask is inherited).
    /// The corresponding C functions are `sigaction` and `pthread_sigmask`.
    ///
    /// - Parameter restartsCalls: SA_RESTART. Without it a blocking call returns EINTR, so that a
    ///   loop waiting in it looks at the flag at once (wanted for stop requests).
    package static func install(_ signals: [Int32], restartsCalls: Bool) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in
            CaughtSignals.pending.bitwiseOr(1 << UInt64(signal), ordering: .relaxed)
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = restartsCalls ? SA_RESTART : 0
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals {
            sigaction(signal, &action, nil)
            sigaddset(&set, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    package static func isPending(_ signal: Int32) -> Bool {
        pending.load(ordering: .relaxed) & (1 << UInt64(signal)) != 0
    }

    /// Whether the signal came since the last `take`; clears it.
    package static func take(_ signal: Int32) -> Bool {
        pending.bitwiseAnd(~(1 << UInt64(signal)), ordering: .relaxed).oldValue & (1 << UInt64(signal)) != 0
    }
}

/// What SIGHUP asks of a long-running command. The kernel sends it to a terminal's processes when
/// the terminal goes away (a closed window, a dropped SSH session): a command started there should
/// then stop and release its receiver. A service has no terminal, and there SIGHUP is the reload
/// that `systemctl reload` sends.
public enum Hangup: Sendable {
    case reloads
    case stops

    /// `.stops` for a process with a controlling terminal, `.reloads` for one without (a service).
    public static var forThisProcess: Hangup { ControllingTerminal.isPresent ? .stops : .reloads }
}

/// SIGINT and SIGTERM: stop cleanly; and SIGHUP too, when the hangup stops.
public enum StopSignals {
    private static let hangupStops = Atomic<Bool>(false)

    public static func install(hangup: Hangup = .reloads) {
        switch hangup {
        case .reloads:
            CaughtSignals.install([SIGINT, SIGTERM], restartsCalls: false)
        case .stops:
            hangupStops.store(true, ordering: .relaxed)
            CaughtSignals.install([SIGINT, SIGTERM, SIGHUP], restartsCalls: false)
        }
    }

    public static var isRaised: Bool {
        CaughtSignals.isPending(SIGINT) || CaughtSignals.isPending(SIGTERM)
            || (hangupStopsTheRun && CaughtSignals.isPending(SIGHUP))
    }

    /// The stop signal that came, if one did (SIGINT first, then SIGTERM, then a stopping SIGHUP):
    /// a command it cut short exits with 128 plus its number, as the shell says.
    public static var raisedSignal: Int32? {
        if CaughtSignals.isPending(SIGINT) { return SIGINT }
        if CaughtSignals.isPending(SIGTERM) { return SIGTERM }
        if hangupStopsTheRun && CaughtSignals.isPending(SIGHUP) { return SIGHUP }
        return nil
    }

    /// Whether SIGHUP was installed as a stop (then it is never a reload).
    package static var hangupStopsTheRun: Bool { hangupStops.load(ordering: .relaxed) }
}

/// SIGHUP: reload the fences, unless it was installed as a stop (`Hangup.stops`).
package enum ReloadSignal {
    package static func install() {
        guard !StopSignals.hangupStopsTheRun else { return }
        CaughtSignals.install([SIGHUP], restartsCalls: true)
    }
    package static func take() -> Bool { !StopSignals.hangupStopsTheRun && CaughtSignals.take(SIGHUP) }
    /// A SIGHUP came that nobody has taken yet.
    package static var isPending: Bool { !StopSignals.hangupStopsTheRun && CaughtSignals.isPending(SIGHUP) }
}

/// SIGUSR1: another gpsfence left a request for the running `run`: `fences add --here` wants the
/// last usable fix written to the state file now, instead of at the next track write (up to a
/// minute away); `gpsfence ack` wrote an answer to the alarm into the state file. The run looks at
/// once rather than reading the file on a timer (a timer costs a Pi wake-ups and writes when
/// nobody asks). One signal for both: the run does both cheap things whenever it comes.
public enum RunRequest {
    /// Installed before the run claims its state file, so a request can never find it without
    /// the handler (SIGUSR1's default is to end the process).
    public static func install() {
        CaughtSignals.install([SIGUSR1], restartsCalls: true)
    }

    package static func take() -> Bool { CaughtSignals.take(SIGUSR1) }
    package static var isPending: Bool { CaughtSignals.isPending(SIGUSR1) }

    /// Asks process `pid`; false when it cannot be signalled (gone, or another user's).
    /// The corresponding C function is `kill`.
    public static func send(to pid: Int) -> Bool { kill(pid_t(pid), SIGUSR1) == 0 }
}

/// Writes to a closed pipe fail with EPIPE where they are made, instead of SIGPIPE killing the
/// process. The corresponding C function is `signal(SIGPIPE, SIG_IGN)`.
public func ignoreBrokenPipes() {
    _ = signal(SIGPIPE, SIG_IGN)
}

extension StopSignals {
    /// SIGINT's number (Ctrl-C), which a stopped command's exit status tells from SIGTERM's.
    public static let interrupt: Int32 = SIGINT
}
