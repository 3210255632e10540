import Glibc
import NMEA
import Synchronization

/// SIGINT and SIGTERM as a flag that long-running commands (`simulate`, `record`) poll between
/// reads, so that they finish their files and close their devices instead of dying mid-write.
public enum StopSignals {
    private static let raised = Atomic<Int32>(0)

    /// Installs the handlers. The corresponding C function is `sigaction`.
    public static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in StopSignals.raised.store(signal, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: let a blocking call return EINTR and the loop look at the flag
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        // A parent may have started us with these blocked (a spawning thread's mask is inherited);
        // a stop request must still get through.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    public static var isRaised: Bool { raised.load(ordering: .relaxed) != 0 }
    public static var signal: Int32 { raised.load(ordering: .relaxed) }
}

/// The wall clock as a UTC instant.
/// The corresponding C function is `clock_gettime(CLOCK_REALTIME)`.
public func currentUTCTime() -> UTCTime {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UTCTime(millisecondsSinceEpoch: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
}
