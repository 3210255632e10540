import Glibc
import SystemPackage

/// The master side of a pseudo-terminal: what `gpsfence simulate` holds while a reader opens the
/// slave path (`/dev/pts/N`) as if it were a USB GPS.
///
/// Opened through `/dev/ptmx` with the two ioctls `posix_openpt`, `unlockpt` and `ptsname` come
/// down to on Linux (Glibc does not export those three to Swift).
public final class PseudoTerminal {
    public let master: FileDescriptor
    /// The path a reader opens.
    public let slavePath: String
    private var isOpen = true

    /// `_IOW('T', 0x31, int)` and `_IOR('T', 0x30, unsigned int)` in the asm-generic ioctl
    /// encoding that x86-64 and arm64 share; Swift cannot import the function-like macros.
    static let setLock: UInt = 0x4004_5431  // TIOCSPTLCK
    static let getNumber: UInt = 0x8004_5430  // TIOCGPTN

    /// Creates a pseudo-terminal whose line starts raw 8N1 at `rate`, like a serial port's.
    ///
    /// The slave is opened once here and closed again: from then on the master polls as hung up
    /// exactly while no reader has the slave open, which is how the simulator knows that its
    /// bytes would fall on the floor, as a real receiver's do when no program has the port open.
    /// The corresponding C functions are `open("/dev/ptmx")`, `ioctl(TIOCSPTLCK)`, `ioctl(TIOCGPTN)`.
    public static func open(rate: BaudRate) throws(SerialError) -> PseudoTerminal {
        let multiplexer = "/dev/ptmx"
        let masterFD = try retryingInterrupts { Glibc.open(multiplexer, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) }
            .get("open", multiplexer)
        let master = FileDescriptor(rawValue: masterFD)
        do {
            var unlock: Int32 = 0
            _ = try retryingInterrupts { ioctl(masterFD, setLock, &unlock) }.get("ioctl(TIOCSPTLCK)", multiplexer)
            var number: UInt32 = 0
            _ = try retryingInterrupts { ioctl(masterFD, getNumber, &number) }.get("ioctl(TIOCGPTN)", multiplexer)
            let slavePath = "/dev/pts/\(number)"
            let slave = try SerialPort.open(slavePath, rate: rate)
            slave.close()
            return PseudoTerminal(master: master, slavePath: slavePath)
        } catch {
            try? master.close()
            throw error
        }
    }

    private init(master: FileDescriptor, slavePath: String) {
        self.master = master
        self.slavePath = slavePath
    }

    deinit { close() }

    /// The line speed the reader has set on the slave side (on Linux the master sees the slave's
    /// termios).
    /// The corresponding C function is `tcgetattr`.
    public func lineRate() -> BaudRate? {
        (try? TerminalAttributes.get(master, path: slavePath))?.inputRate
    }

    /// Whether some process has the slave open. The master reports POLLHUP while none has.
    /// The corresponding C function is `poll`.
    public var hasReader: Bool {
        guard let events = try? poll([(master, [])], timeout: 0) else { return false }
        return !events[0].contains(.hangUp)
    }

    /// Writes what the queue takes now; returns the count written. Bytes that do not fit (a reader
    /// that stopped reading) or that nobody would read are dropped, as a UART drops them.
    /// The corresponding C function is `write`.
    public func writeAvailable(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        switch retryingInterrupts({ Glibc.write(master.rawValue, bytes.baseAddress, bytes.count) }) {
        case .success(let count): return count
        case .failure: return 0
        }
    }

    /// Waits up to `timeout` seconds and reads what the slave side wrote; 0 on timeout or hang-up.
    /// The corresponding C functions are `poll` and `read`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double) -> Int {
        guard let events = try? poll([(master, .readable)], timeout: timeout), events[0].contains(.readable) else {
            return 0
        }
        switch retryingInterrupts({ Glibc.read(master.rawValue, buffer.baseAddress, buffer.count) }) {
        case .success(let count): return count
        case .failure: return 0
        }
    }

    /// Reads what the reader wrote to the port, without waiting: empty when nothing is there (the
    /// master is non-blocking), as a receiver's UART hands over what has arrived.
    /// The corresponding C function is `read`.
    public func readIncoming() -> [UInt8] {
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            let result = scratch.withUnsafeMutableBytes { buffer in
                retryingInterrupts { Glibc.read(master.rawValue, buffer.baseAddress, buffer.count) }
            }
            guard case .success(let count) = result, count > 0 else { return received }
            received += scratch[..<count]
        }
    }

    /// Reads and discards what the reader wrote to the port (a receiver ignores commands it does
    /// not understand), so the queue towards us never fills.
    /// The corresponding C function is `read`.
    public func discardIncoming() {
        var scratch = [UInt8](repeating: 0, count: 512)
        while true {
            let count = scratch.withUnsafeMutableBytes { Glibc.read(master.rawValue, $0.baseAddress, $0.count) }
            if count <= 0 { return }
        }
    }

    /// The corresponding C function is `close`.
    public func close() {
        guard isOpen else { return }
        isOpen = false
        try? master.close()
    }
}
