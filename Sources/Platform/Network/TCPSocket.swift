import Glibc
import SystemPackage

/// A failed system call on a TCP connection: which call, to which endpoint, and the `errno` it set
/// (nil for `getaddrinfo`, whose failures are not errno values; `detail` says what happened).
public struct SocketError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What an errno alone does not say.
    public enum Detail: Equatable, Sendable {
        /// `getaddrinfo` failed with this status (an `EAI_` code).
        case resolver(Int32)
        /// A Unix socket's path longer than the kernel's `sun_path` holds.
        case pathTooLong(maximum: Int)
        /// The other end (`peer`: the program, as a message names it) closed the connection.
        case closedByPeer(peer: String)

        /// `gai_strerror`'s words for a resolver status.
        /// The corresponding C function is `gai_strerror`.
        public var text: String {
            switch self {
            case .resolver(let status): gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            case .pathTooLong(let maximum): "a Unix socket's path holds at most \(maximum) bytes"
            case .closedByPeer(let peer): "\(peer) closed the connection"
            }
        }
    }

    /// The C call that failed ("connect", "read", ...).
    public var operation: String
    /// `host:port` as the user gave them.
    public var endpoint: String
    public var errno: Errno?
    public var detail: Detail?

    public init(operation: String, endpoint: String, errno: Errno?, detail: Detail? = nil) {
        self.operation = operation
        self.endpoint = endpoint
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        var text = "\(operation) \(endpoint) failed"
        if let errno { text += ": " + errno.description }
        if let detail { text += (errno == nil ? ": " : "; ") + detail.text }
        return text
    }
}

/// A connected TCP stream socket, non-blocking, read with `poll`, in the manner of `SerialPort`.
public final class TCPSocket {
    public let descriptor: FileDescriptor
    /// `host:port`, for messages.
    public let endpoint: String
    private var isOpen = true

    /// Resolves `host` and connects to the first of its addresses that accepts, each within
    /// `timeout` seconds (a host that drops packets must not hang a reconnect loop for minutes).
    /// The corresponding C functions are `getaddrinfo`, `socket`, `connect`, `poll` and
    /// `getsockopt(SO_ERROR)`.
    public static func connect(host: String, port: Int, timeout: Double) throws(SocketError) -> TCPSocket {
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SocketError(operation: "resolve", endpoint: endpoint, errno: nil, detail: .resolver(status))
        }
        defer { freeaddrinfo(first) }
        var lastError = SocketError(operation: "connect", endpoint: endpoint, errno: .noSuchAddressOrDevice)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            do throws(SocketError) {
                return try connect(address.pointee, endpoint: endpoint, timeout: timeout)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(_ address: addrinfo, endpoint: String, timeout: Double) throws(SocketError) -> TCPSocket
    {
        let type = address.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = try retryingInterrupts { Glibc.socket(address.ai_family, type, address.ai_protocol) }
            .get(endpoint, operation: "socket")
        let socket = TCPSocket(descriptor: FileDescriptor(rawValue: fd), endpoint: endpoint)
        // A non-blocking connect returns EINPROGRESS; interrupted, it carries on in the kernel
        // (EINTR must not be retried as a new connect): both are finished by waiting for POLLOUT.
        if Glibc.connect(fd, address.ai_addr, address.ai_addrlen) == -1 {
            let error = Errno(rawValue: Glibc.errno)
            guard error == .nowInProgress || error == .interrupted else {
                throw SocketError(operation: "connect", endpoint: endpoint, errno: error)
            }
            let deadline = monotonicSeconds() + timeout
            while true {
                let remaining = deadline - monotonicSeconds()
                guard remaining > 0 else {
                    throw SocketError(operation: "connect", endpoint: endpoint, errno: .timedOut)
                }
                let events: PollEvents
                do { events = try poll([(socket.descriptor, .writable)], timeout: remaining)[0] } catch {
                    throw SocketError(operation: "poll", endpoint: endpoint, errno: error)
                }
                if !events.isEmpty { break }
            }
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = try retryingInterrupts { getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) }
                .get(endpoint, operation: "getsockopt")
            if pending != 0 {
                throw SocketError(operation: "connect", endpoint: endpoint, errno: Errno(rawValue: pending))
            }
        }
        return socket
    }

    private init(descriptor: FileDescriptor, endpoint: String) {
        self.descriptor = descriptor
        self.endpoint = endpoint
    }

    deinit { close() }

    public enum ReadResult: Equatable, Sendable {
        /// This many bytes were stored at the start of the buffer.
        case data(Int)
        /// Nothing arrived within the timeout (or a signal interrupted the wait).
        case timeout
        /// The peer closed the connection.
        case closed
    }

    /// Waits up to `timeout` seconds for bytes and reads what has arrived.
    /// The corresponding C functions are `poll` and `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(SocketError) -> ReadResult {
        do {
            switch try pollThenRead(descriptor, into: buffer, timeout: timeout) {
            case .data(let count): return .data(count)
            case .timeout: return .timeout
            case .endOfFile: return .closed
            }
        } catch {
            throw SocketError(operation: error.operation, endpoint: endpoint, errno: error.errno)
        }
    }

    /// Writes all of `bytes`, waiting (up to 5 s per stall) while the send queue is full.
    /// `MSG_NOSIGNAL`: a peer that has gone must be an error value, never a SIGPIPE.
    /// The corresponding C functions are `send` and `poll`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch retryingInterrupts({
                Glibc.send(descriptor.rawValue, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
            }) {
            case .success(let count): offset += count
            case .failure(.resourceTemporarilyUnavailable):
                let events: PollEvents
                do { events = try poll([(descriptor, .writable)], timeout: 5)[0] } catch {
                    throw SocketError(operation: "poll", endpoint: endpoint, errno: error)
                }
                if events.isEmpty { throw SocketError(operation: "send", endpoint: endpoint, errno: .timedOut) }
            case .failure(let errno): throw SocketError(operation: "send", endpoint: endpoint, errno: errno)
            }
        }
    }

    /// Closes the socket (idempotent).
    /// The corresponding C function is `close`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }
}

extension Result where Failure == Errno {
    fileprivate func get(_ endpoint: String, operation: String) throws(SocketError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let errno): throw SocketError(operation: operation, endpoint: endpoint, errno: errno)
        }
    }
}
