import SystemPackage

#if canImport(Glibc)
    import CMemory
    import Glibc
#endif

/// How late the kernel may end the calling thread's timed waits (its sleeps and `poll` timeouts),
/// to serve several timers with one interrupt: Linux's default is 50 µs, inherited from the thread
/// that created this one. A thread whose sleep ends at the moment a receiver's bytes are due sets a
/// smaller one, so that the wake-up comes when it asked; the number of its wake-ups stays the same.
/// `nanoseconds` must be positive (0 would restore the default). Affects the calling thread only.
/// The corresponding C function is `prctl(PR_SET_TIMERSLACK)`.
public func setTimerSlack(nanoseconds: Int) -> Result<Void, Errno> {
    #if canImport(Glibc)
        guard nanoseconds > 0 else { return .failure(.invalidArgument) }
        guard gpsfence_set_timer_slack(UInt(nanoseconds)) == 0 else { return .failure(Errno(rawValue: errno)) }
    #endif
    return .success(())
}

/// The calling thread's timer slack in nanoseconds (`setTimerSlack`).
/// The corresponding C function is `prctl(PR_GET_TIMERSLACK)`.
public func timerSlackNanoseconds() -> Int {
    #if canImport(Glibc)
        return Int(gpsfence_timer_slack())
    #else
        return 0
    #endif
}
