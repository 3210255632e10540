#if canImport(Glibc)
    import Glibc
#endif

/// Feeds bytes into a child's standard input without ever blocking: the write end is made
/// non-blocking and `pump` waits for room with `poll`, so that a child that does not read cannot
/// hold its feeder. The pipe is closed once everything is written, or when the child closed its
/// end (EPIPE) without reading it all; `close` closes it early.
public struct InputFeeder {
    private var fd: Int32
    private let bytes: [UInt8]
    private var written = 0

    /// Takes the write end `fd` over. The corresponding C function is `fcntl(F_SETFL, O_NONBLOCK)`.
    public init(fd: Int32, bytes: [UInt8]) {
        self.fd = fd
        self.bytes = bytes
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Writes what fits; waits at most `seconds` for room (or just sleeps when all is written).
    /// The corresponding C functions are `poll(POLLOUT)` and `write`, EINTR retried.
    public mutating func pump(waitingAtMost seconds: Double) {
        let milliseconds = Int32(max(1, min(seconds * 1000, 1000)))
        guard fd >= 0 else {
            usleep(useconds_t(milliseconds) * 1000)
            return
        }
        var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        writing: while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                retryingInterrupts { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            switch result {
            case .success(let count) where count > 0: written += count
            case .failure(.resourceTemporarilyUnavailable): return
            default:
                // EPIPE: the child closed its input (or exited) without reading it all.
                break writing
            }
        }
        close()
    }

    /// Closes the pipe: the child reads end of file. The corresponding C function is `close`.
    public mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }
}
