import Glibc
import SystemPackage

/// What `poll` reported for one descriptor.
public struct PollEvents: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// The other end is gone: a USB device unplugged, the last slave of a pseudo-terminal closed,
    /// or its master closed.
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
}

/// Waits until one of `descriptors` is ready, or `timeout` seconds pass (nil waits forever).
/// Returns the events per descriptor, in order; all empty on timeout. A signal ends the wait early
/// with no events, so that a caller can look at its stop flag.
/// The corresponding C function is `poll`.
public func poll(
    _ descriptors: [(FileDescriptor, PollEvents)], timeout: Double?
) throws(Errno) -> [PollEvents] {
    var fds = descriptors.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    let milliseconds = pollMilliseconds(timeout)
    let result = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), milliseconds) }
    if result == -1 {
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { return descriptors.map { _ in [] } }
        throw error
    }
    return fds.map { PollEvents(rawValue: $0.revents) }
}

/// `poll` of one descriptor, as `poll(_:timeout:)` gives for a list of one, with the `pollfd` on the
/// stack: the reader waits on its device this way once or twice per receiver cycle, and three
/// array allocations a wait showed in its CPU profile (docs/performance.md, "Live cost").
/// The corresponding C function is `poll`.
public func poll(_ descriptor: FileDescriptor, for events: PollEvents, timeout: Double?) throws(Errno) -> PollEvents {
    var entry = pollfd(fd: descriptor.rawValue, events: events.rawValue, revents: 0)
    let milliseconds = pollMilliseconds(timeout)
    if Glibc.poll(&entry, 1, milliseconds) == -1 {
        let error = Errno(rawValue: Glibc.errno)
        if error == .interrupted { return [] }
        throw error
    }
    return PollEvents(rawValue: entry.revents)
}

/// `poll`'s timeout argument: whole milliseconds rounded up (a wait never ends before `timeout`),
/// at most an hour, and -1 (no limit) for nil.
private func pollMilliseconds(_ timeout: Double?) -> Int32 {
    timeout.map { Int32(max(0, min($0 * 1000, 3_600_000)).rounded(.up)) } ?? -1
}
