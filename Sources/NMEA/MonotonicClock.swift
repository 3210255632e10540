#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in seconds: for deadlines, timeouts and pacing, never affected by changes of the
/// wall clock. Here, beside the receiver's clock types, because every layer above needs it.
/// The corresponding C function is `clock_gettime(CLOCK_MONOTONIC)`.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
