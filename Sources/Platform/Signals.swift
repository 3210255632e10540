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

/// SIGINT and SIGTERM: stop cleanly.
public enum StopSignals {
    public static func install() { CaughtSignals.install([SIGINT, SIGTERM], restartsCalls: false) }
    public static var isRaised: Bool { CaughtSignals.isPending(SIGINT) || CaughtSignals.isPending(SIGTERM) }
}

/// SIGHUP: reload the fences.
package enum ReloadSignal {
    package static func install() { CaughtSignals.install([SIGHUP], restartsCalls: true) }
    package static func take() -> Bool { CaughtSignals.take(SIGHUP) }
    /// A SIGHUP came that nobody has taken yet.
    package static var isPending: Bool { CaughtSignals.isPending(SIGHUP) }
}
