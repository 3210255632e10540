import Glibc
import SystemPackage

/// An open serial device, raw 8N1, read with `poll`.
///
/// Opened `O_NOCTTY` (a GPS must never become our controlling terminal, or its hangup would send us
/// SIGHUP) and `O_NONBLOCK` (an open must not wait for a carrier the receiver never raises), then
/// claimed with `TIOCEXCL` so that a second program opening the same port fails instead of
/// silently splitting the byte stream with us. Close-on-exec, so a hook or a voice started while the
/// port is open does not keep the receiver claimed after we close it.
public final class SerialPort {
    public let path: String
    public let descriptor: FileDescriptor
    public private(set) var rate: BaudRate?
    private var isOpen = true

    /// Opens and configures `path`; `rate` nil leaves the line speed as it is.
    /// The corresponding C functions are `open`, `ioctl(TIOCEXCL)`, `tcgetattr` and `tcsetattr`.
    public static func open(_ path: String, rate: BaudRate?) throws(SerialError) -> SerialPort {
        let options = FileDescriptor.OpenOptions(rawValue: O_NOCTTY).union(.nonBlocking).union(.closeOnExec)
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readWrite, options: options, retryOnInterrupt: true)
        } catch let errno as Errno {
            var error = SerialError(operation: "open", path: path, errno: errno)
            error.hint = DevicePermissions.hint(for: errno, path: path)
            throw error
        } catch {
            throw SerialError(operation: "open", path: path, errno: .ioError)
        }
        let port = SerialPort(path: path, descriptor: descriptor)
        do {
            try port.claimExclusively()
            var attributes = try TerminalAttributes.get(descriptor, path: path)
            attributes.makeRaw8N1()
            if let rate { attributes.setRate(rate) }
            try attributes.set(descriptor, path: path)
            port.rate = try TerminalAttributes.get(descriptor, path: path).inputRate
            try discardInput(descriptor, path: path)
        } catch {
            port.close()
            throw error
        }
        return port
    }

    private init(path: String, descriptor: FileDescriptor) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Other opens of this port fail with EBUSY until we close it.
    /// The corresponding C function is `ioctl` with `TIOCEXCL`.
    private func claimExclusively() throws(SerialError) {
        _ = try retryingInterrupts { ioctl(descriptor.rawValue, UInt(TIOCEXCL)) }.get("ioctl(TIOCEXCL)", path)
    }

    /// Whether the port is claimed with TIOCEXCL (root can still open it; others get EBUSY).
    /// The corresponding C function is `ioctl` with `TIOCGEXCL` (`_IOR('T', 0x40, int)`, which
    /// Swift cannot import as a macro).
    public var isExclusive: Bool {
        var flag: Int32 = 0
        let result = retryingInterrupts { ioctl(descriptor.rawValue, UInt(0x8004_5440), &flag) }
        return (try? result.get()) != nil && flag != 0
    }

    /// Whether `path` still leads to the device we have open. False once the node is gone (USB
    /// unplugged, a simulator's pseudo-terminal closed) or the path now names another device (a
    /// by-id or `--link` symlink moved to a replugged receiver) while our descriptor lingers.
    /// The corresponding C functions are `fstat` and `stat`.
    public var isStillAtPath: Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor.rawValue, &open) == 0, stat(path, &named) == 0 else { return false }
        return open.st_rdev == named.st_rdev
    }

    /// Changes the line speed and drops whatever arrived at the old one.
    /// The corresponding C functions are `tcsetattr` and `tcflush`.
    public func setRate(_ rate: BaudRate) throws(SerialError) {
        var attributes = try TerminalAttributes.get(descriptor, path: path)
        attributes.setRate(rate)
        try attributes.set(descriptor, path: path)
        try discardInput(descriptor, path: path)
        self.rate = rate
    }

    /// The settings now in force (what the kernel accepted, not what we asked for).
    public func attributes() throws(SerialError) -> TerminalAttributes {
        try TerminalAttributes.get(descriptor, path: path)
    }

    public enum ReadResult: Equatable, Sendable {
        /// This many bytes were stored at the start of the buffer.
        case data(Int)
        /// Nothing arrived within the timeout (or a signal interrupted the wait).
        case timeout
        /// End of file: the device hung up (unplugged, or the pseudo-terminal's master closed).
        case hangUp
    }

    /// Waits up to `timeout` seconds for bytes and reads what has arrived.
    /// The corresponding C functions are `poll` and `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double?) throws(SerialError) -> ReadResult {
        do {
            return ReadResult(try pollThenRead(descriptor, into: buffer, timeout: timeout))
        } catch {
            throw SerialError(operation: error.operation, path: path, errno: error.errno)
        }
    }

    /// Reads what is there now without waiting.
    /// The corresponding C function is `read`.
    public func readAvailable(into buffer: UnsafeMutableRawBufferPointer) throws(SerialError) -> ReadResult {
        do {
            return ReadResult(try readNow(descriptor, into: buffer))
        } catch {
            throw SerialError(operation: error.operation, path: path, errno: error.errno)
        }
    }

    /// Writes all of `bytes`, waiting while the output queue is full.
    /// The corresponding C functions are `write` and `poll`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SerialError) {
        var offset = 0
        while offset < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            switch retryingInterrupts({ Glibc.write(descriptor.rawValue, rest.baseAddress, rest.count) }) {
            case .success(let count): offset += count
            case .failure(.resourceTemporarilyUnavailable):
                do { _ = try poll([(descriptor, .writable)], timeout: 1) } catch {
                    throw SerialError(operation: "poll", path: path, errno: error)
                }
            case .failure(let errno): throw SerialError(operation: "write", path: path, errno: errno)
            }
        }
    }

    /// Closes the port (idempotent). Errors from `close` are ignored: the descriptor is gone either
    /// way, and a hung-up device may report EIO here.
    /// The corresponding C function is `close`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
    }
}

extension SerialPort.ReadResult {
    init(_ read: PolledRead) {
        switch read {
        case .data(let count): self = .data(count)
        case .timeout: self = .timeout
        case .endOfFile: self = .hangUp
        }
    }
}
