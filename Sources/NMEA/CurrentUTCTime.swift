import Platform

/// The wall clock as a UTC instant. Only for timestamps that are stored or shown; never for a
/// deadline (`monotonicSeconds`).
public func currentUTCTime() -> UTCTime {
    UTCTime(millisecondsSinceEpoch: wallClockMilliseconds())
}
