import Glibc
import SystemPackage

/// Runs a C call that returns -1 and sets `errno` on failure, retrying while it fails with EINTR
/// (a signal such as SIGINT arriving during a blocking call must not look like a device error).
@inline(__always)
package func retryingInterrupts<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
    while true {
        let result = body()
        if result != -1 { return .success(result) }
        let error = Errno(rawValue: Glibc.errno)
        if error != .interrupted { return .failure(error) }
    }
}

extension Result where Failure == Errno {
    /// The value, or the errno wrapped as a `SerialError` naming the call and the path.
    package func get(_ operation: String, _ path: String) throws(SerialError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let errno): throw SerialError(operation: operation, path: path, errno: errno)
        }
    }
}

/// Sleeps for `seconds`, resuming after signals until the time has passed.
/// The corresponding C function is `nanosleep`.
public func sleepSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1, Glibc.errno == EINTR { request = remaining }
}

/// Sleeps until the monotonic clock (`monotonicSeconds()`) reads `deadline`, resuming after
/// signals; returns at once for a deadline already past. The deadline holds however long the
/// caller took to get here and however often a signal interrupts the sleep, where a relative sleep
/// ends late by the time between reading the clock and the call. The wake-up comes after the
/// deadline by the thread's timer slack at most (`setTimerSlack`) and the scheduler's delay.
/// Fails only for a deadline the clock cannot hold (EINVAL).
/// The corresponding C function is `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`.
public func sleepUntil(monotonicSeconds deadline: Double) -> Result<Void, Errno> {
    guard deadline >= 0, deadline < 1e15 else { return .failure(.invalidArgument) }
    let seconds = deadline.rounded(.down)
    var until = timespec(tv_sec: Int(seconds), tv_nsec: min(Int((deadline - seconds) * 1e9), 999_999_999))
    while true {
        // Returns the error rather than setting errno.
        let result = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nil)
        if result == 0 { return .success(()) }
        if result != EINTR { return .failure(Errno(rawValue: result)) }
    }
}

/// Sleeps for `seconds` or until a signal arrives, whichever is first: for a loop that looks at
/// its stop flag after each nap. The corresponding C function is `nanosleep`.
public func napSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    _ = nanosleep(&request, nil)
}
