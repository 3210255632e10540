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

/// Sleeps for `seconds` or until a signal arrives, whichever is first: for a loop that looks at
/// its stop flag after each nap. The corresponding C function is `nanosleep`.
public func napSeconds(_ seconds: Double) {
    guard seconds > 0 else { return }
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    _ = nanosleep(&request, nil)
}
