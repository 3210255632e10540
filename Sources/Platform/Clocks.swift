#if canImport(Glibc)
    import Glibc
#endif

// The host's two clocks: the monotonic one for every deadline, timeout and pace; the wall clock for
// timestamps (NMEA's `currentUTCTime()` makes it a `UTCTime`).

/// Monotonic time in seconds: for deadlines, timeouts and pacing, never affected by changes of the
/// wall clock.
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The wall clock in milliseconds since 1970 (UTC). Only for timestamps that are stored or shown;
/// never for a deadline (`monotonicSeconds`).
/// The corresponding C function is `clock_gettime(CLOCK_REALTIME)`.
public func wallClockMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
}
