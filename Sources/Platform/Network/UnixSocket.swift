import Glibc
import SystemPackage

/// A listening Unix stream socket at a path, reachable only by its owner: the file is mode 0600,
/// and each connection's peer is checked to be this process's user (`SO_PEERCRED`), so that the
/// moment between `bind` and `chmod` lets nobody else in. What `run` answers `status` through.
public final class UnixSocketListener: @unchecked Sendable {
    public let descriptor: FileDescriptor
    public let path: String
    private var isOpen = true

    /// The longest path a `sockaddr_un` holds, without its terminating zero.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Binds a new socket at `path`, replacing a socket file left there by a run that ended
    /// without removing it (the caller holds the claim that no other run uses the path), and
    /// listens. Anything at `path` that is not a socket is left alone: `bind` fails with EEXIST.
    /// The corresponding C functions are `lstat`, `unlink`, `socket`, `bind`, `chmod` and `listen`.
    public static func listen(at path: String, backlog: Int32 = 16) throws(SocketError) -> UnixSocketListener {
        guard path.utf8.count <= maxPathLength else {
            throw SocketError(
                operation: "bind", endpoint: path, errno: .fileNameTooLong,
                detail: .pathTooLong(maximum: maxPathLength))
        }
        var existing = stat()
        if lstat(path, &existing) == 0, existing.st_mode & S_IFMT == S_IFSOCK { unlink(path) }
        let fd = try retryingInterrupts {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }.get(path, operation: "socket")
        let listener = UnixSocketListener(descriptor: FileDescriptor(rawValue: fd), path: path)
        var address = socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if bound == -1 { throw SocketError(operation: "bind", endpoint: path, errno: Errno(rawValue: Glibc.errno)) }
        listener.bound = true
        if chmod(path, 0o600) == -1 {
            throw SocketError(operation: "chmod", endpoint: path, errno: Errno(rawValue: Glibc.errno))
        }
        _ = try retryingInterrupts { Glibc.listen(fd, backlog) }.get(path, operation: "listen")
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return listener
    }

    private var bound = false

    private init(descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close() }

    /// The next waiting connection, non-blocking; nil when none waits or when its peer is another
    /// user (that connection is closed at once).
    /// The corresponding C functions are `accept4` and `getsockopt(SO_PEERCRED)`.
    public func acceptOwnUser() throws(SocketError) -> UnixConnection? {
        let result = retryingInterrupts { Glibc.accept(descriptor.rawValue, nil, nil) }
        let fd: Int32
        switch result {
        case .success(let value): fd = value
        case .failure(.resourceTemporarilyUnavailable), .failure(.connectionAbort): return nil
        case .failure(let errno): throw SocketError(operation: "accept", endpoint: path, errno: errno)
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.uid == geteuid()
        else {
            Glibc.close(fd)
            return nil
        }
        return UnixConnection(descriptor: FileDescriptor(rawValue: fd), endpoint: path)
    }

    /// Stops listening and removes the socket file (idempotent).
    /// The corresponding C functions are `close` and `unlink`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
        if bound { unlink(path) }
    }
}

/// One connection on a Unix stream socket, non-blocking.
public final class UnixConnection {
    public let descriptor: FileDescriptor
    let endpoint: String

    init(descriptor: FileDescriptor, endpoint: String) {
        self.descriptor = descriptor
        self.endpoint = endpoint
    }

    deinit { try? descriptor.close() }

    /// Sends as much of `bytes` as the socket's queue takes now, never waiting: a peer that does
    /// not read cannot hold the sender. Returns how many bytes went.
    /// The corresponding C function is `send` (`MSG_NOSIGNAL`: a peer gone is an error value).
    public func sendNow(_ bytes: [UInt8]) throws(SocketError) -> Int {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { all in
                let rest = UnsafeRawBufferPointer(rebasing: all[offset...])
                return retryingInterrupts {
                    Glibc.send(descriptor.rawValue, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
                }
            }
            switch result {
            case .success(let count): offset += count
            case .failure(.resourceTemporarilyUnavailable): return offset
            case .failure(let errno): throw SocketError(operation: "send", endpoint: endpoint, errno: errno)
            }
        }
        return offset
    }

    /// Everything the peer sends until it closes, waiting at most `timeout` seconds in all and
    /// keeping at most `limit` bytes.
    /// The corresponding C functions are `poll` and `read`.
    public func readToEnd(timeout: Double, limit: Int = 1 << 20) throws(SocketError) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        let deadline = monotonicSeconds() + timeout
        while received.count < limit {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw SocketError(operation: "read", endpoint: endpoint, errno: .timedOut) }
            let read = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(PolledReadFailure) in try pollThenRead(descriptor, into: bytes, timeout: remaining) }
            }
            switch try read.mapError({ SocketError(operation: $0.operation, endpoint: endpoint, errno: $0.errno) })
                .get()
            {
            case .data(let count): received += buffer[..<count]
            case .timeout: continue
            case .endOfFile: return received
            }
        }
        return received
    }
}

/// Linux's `struct ucred`, which Glibc's module leaves out (it needs `_GNU_SOURCE`): what
/// `getsockopt(SO_PEERCRED)` fills in.
private struct PeerCredentials {
    var pid: pid_t = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}

/// The client's side: what a listener at a path says, when that path is a socket of this user's.
public enum UnixSocketClient {
    /// Why nothing was asked: no socket there (no run listens), or one this user must not trust.
    public enum Refusal: Error, Equatable, Sendable {
        /// Nothing at the path, or a socket nobody listens on (a run that died).
        case nobodyListens
        /// A socket owned by another user, or something that is not a socket.
        case notOwnSocket
        case failed(SocketError)
    }

    /// Connects to the socket at `path` and reads everything it sends until it closes, within
    /// `timeout` seconds. The socket file must be a socket owned by this process's user.
    /// The corresponding C functions are `lstat`, `socket`, `connect`, `poll` and `read`.
    public static func readAll(from path: String, timeout: Double) -> Result<[UInt8], Refusal> {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .failure(.nobodyListens) }
        guard info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == geteuid() else { return .failure(.notOwnSocket) }
        guard path.utf8.count <= UnixSocketListener.maxPathLength else {
            return .failure(.failed(SocketError(operation: "connect", endpoint: path, errno: .fileNameTooLong)))
        }
        let fd: Int32
        switch retryingInterrupts({
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }) {
        case .success(let value): fd = value
        case .failure(let errno):
            return .failure(.failed(SocketError(operation: "socket", endpoint: path, errno: errno)))
        }
        let connection = UnixConnection(descriptor: FileDescriptor(rawValue: fd), endpoint: path)
        var address = socketAddress(path)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                retryingInterrupts { Glibc.connect(fd, generic, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        switch connected {
        case .success: break
        case .failure(.connectionRefused), .failure(.noSuchFileOrDirectory): return .failure(.nobodyListens)
        case .failure(let errno):
            return .failure(.failed(SocketError(operation: "connect", endpoint: path, errno: errno)))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        do throws(SocketError) {
            return .success(try connection.readToEnd(timeout: timeout))
        } catch {
            return .failure(.failed(error))
        }
    }
}

/// `path` as a `sockaddr_un`; the caller has checked that it fits.
private func socketAddress(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
    }
    return address
}

extension Result where Failure == Errno {
    fileprivate func get(_ endpoint: String, operation: String) throws(SocketError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let errno): throw SocketError(operation: operation, endpoint: endpoint, errno: errno)
        }
    }
}
