import Glibc
import SystemPackage

/// What one wait-and-read of a device or socket gave.
package enum PolledRead: Equatable, Sendable {
    /// This many bytes were stored at the start of the buffer.
    case data(Int)
    /// Nothing arrived within the timeout (or a signal interrupted the wait).
    case timeout
    /// `read` returned 0: the device hung up, or the peer closed the connection.
    case endOfFile
}

/// Which call failed, and why: the caller names the device or endpoint in its own error type.
package struct PolledReadFailure: Error {
    package var operation: String
    package var errno: Errno
}

/// The poll-then-read that the serial port and the gpsd socket share: waits up to `timeout`
/// seconds (nil: for ever) for `descriptor` to be readable, then reads what has arrived.
/// The corresponding C functions are `poll` and `read`, EINTR retried.
package func pollThenRead(
    _ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, timeout: Double?
) throws(PolledReadFailure) -> PolledRead {
    let events: PollEvents
    do {
        events = try poll(descriptor, for: .readable, timeout: timeout)
    } catch {
        throw PolledReadFailure(operation: "poll", errno: error)
    }
    if events.isEmpty { return .timeout }
    if events.contains(.invalid) { throw PolledReadFailure(operation: "poll", errno: .badFileDescriptor) }
    return try readNow(descriptor, into: buffer)
}

/// Reads what is there now without waiting (the descriptor is non-blocking).
/// The corresponding C function is `read`, EINTR retried.
package func readNow(_ descriptor: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(PolledReadFailure)
    -> PolledRead
{
    switch retryingInterrupts({ Glibc.read(descriptor.rawValue, buffer.baseAddress, buffer.count) }) {
    case .success(0): return .endOfFile
    case .success(let count): return .data(count)
    case .failure(.resourceTemporarilyUnavailable): return .timeout
    case .failure(let errno): throw PolledReadFailure(operation: "read", errno: errno)
    }
}
