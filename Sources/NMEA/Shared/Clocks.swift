#if canImport(Glibc)
    import Glibc
#endif

// The host's two clocks, here, beside the receiver's time types, because every layer above needs
// them: the monotonic one for every deadline, timeout and pace; the wall clock for timestamps.

/// Monotonic time in seconds: for deadlines, timeouts and pacing, never affected by changes of the
/// wall clock. Here, beside the receiver's clock types, because every layer above needs it.
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The wall clock as a UTC instant (milliseconds since 1970: `.millisecondsSinceEpoch`). Only for
/// timestamps that are stored or shown; never for a deadline (`monotonicSeconds`).
/// The corresponding C function is `clock_gettime(CLOCK_REALTIME)`.
public func currentUTCTime() -> UTCTime {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UTCTime(millisecondsSinceEpoch: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
}
