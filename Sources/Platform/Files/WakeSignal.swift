import Glibc
import SystemPackage

/// A descriptor that another thread makes readable, so that a thread blocked in `poll` over it and
/// the descriptors it waits on (a folder watch, a device) wakes at once when asked, instead of
/// waking on a timer to look at a flag: what ends the idle wait of `run`'s fence file watcher at a
/// SIGHUP or a stop. A signal stays readable until `drain()`, so one given before the thread is
/// back in `poll` is not lost.
///
/// A pipe, the thread's end read and the other end written to (Glibc's module does not offer
/// `eventfd`). Errors are values, as in swift-system; both ends are closed when the signal goes
/// away.
public final class WakeSignal: @unchecked Sendable {
    /// The end to poll for readability.
    public let descriptor: FileDescriptor
    private let writeEnd: Int32

    /// A pipe with nothing in it, non-blocking and close-on-exec at both ends (set right after
    /// `pipe`: Glibc's module does not offer `pipe2` either).
    /// The corresponding C functions are `pipe` and `fcntl`.
    public init() throws(SerialError) {
        var ends: [Int32] = [-1, -1]
        _ = try retryingInterrupts { Glibc.pipe(&ends) }.get("pipe", "")
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = FileDescriptor(rawValue: ends[0])
        writeEnd = ends[1]
    }

    deinit {
        _ = Glibc.close(descriptor.rawValue)
        _ = Glibc.close(writeEnd)
    }

    /// Makes `descriptor` readable (until `drain()`); safe from any thread.
    /// The corresponding C function is `write`, EINTR retried. A full pipe (EAGAIN) is readable
    /// already, so that failure is no failure.
    public func signal() {
        var byte: UInt8 = 1
        _ = retryingInterrupts { Glibc.write(writeEnd, &byte, 1) }
    }

    /// Takes the signals given since the last call, making `descriptor` unreadable; true when
    /// there was at least one.
    /// The corresponding C function is `read`, EINTR retried, until the pipe is empty (EAGAIN).
    @discardableResult
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var any = false
        while case .success(let count) = retryingInterrupts({ Glibc.read(descriptor.rawValue, &buffer, buffer.count) }),
            count > 0
        {
            any = true
        }
        return any
    }
}
