import Glibc
import SystemPackage

/// The line settings of a terminal device: a typed wrapper around `struct termios`.
public struct TerminalAttributes: Sendable {
    var raw: termios

    /// Reads the settings of the terminal open on `descriptor`.
    /// The corresponding C function is `tcgetattr`.
    public static func get(_ descriptor: FileDescriptor, path: String) throws(SerialError) -> TerminalAttributes {
        var raw = termios()
        _ = try retryingInterrupts { tcgetattr(descriptor.rawValue, &raw) }.get("tcgetattr", path)
        return TerminalAttributes(raw: raw)
    }

    /// Applies these settings now.
    /// The corresponding C function is `tcsetattr` with `TCSANOW`.
    public func set(_ descriptor: FileDescriptor, path: String) throws(SerialError) {
        var raw = self.raw
        _ = try retryingInterrupts { tcsetattr(descriptor.rawValue, TCSANOW, &raw) }.get("tcsetattr", path)
    }

    /// Raw 8N1 for a GPS: no echo, no line editing, no CR/LF translation, no software or hardware
    /// flow control (receivers wire neither), modem control lines ignored (`CLOCAL`: a USB bridge
    /// without DCD must not block the open or hang up), receiver on (`CREAD`). Reads return
    /// whatever has arrived (`VMIN` 0, `VTIME` 0); waiting is done with `poll`.
    /// The corresponding C function is `cfmakeraw`, plus the flags it leaves alone.
    public mutating func makeRaw8N1() {
        cfmakeraw(&raw)
        raw.c_cflag &= ~(tcflag_t(CSIZE) | tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
        raw.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD)
        raw.c_iflag &= ~(tcflag_t(IXON) | tcflag_t(IXOFF) | tcflag_t(IXANY))
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
    }

    /// The input speed; nil for B0 or a rate outside `BaudRate`'s table.
    /// The corresponding C function is `cfgetispeed`.
    public var inputRate: BaudRate? {
        var raw = self.raw
        return BaudRate(speed: cfgetispeed(&raw))
    }

    /// Sets both directions to `rate`.
    /// The corresponding C function is `cfsetspeed`.
    public mutating func setRate(_ rate: BaudRate) {
        _ = cfsetspeed(&raw, rate.speed)
    }

    /// Whether the settings are raw 8N1 as `makeRaw8N1` leaves them (for tests and `doctor`).
    public var isRaw8N1: Bool {
        raw.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8) && raw.c_cflag & tcflag_t(PARENB) == 0
            && raw.c_cflag & tcflag_t(CSTOPB) == 0 && raw.c_lflag & (tcflag_t(ICANON) | tcflag_t(ECHO)) == 0
    }
}

/// Discards bytes received but not yet read, such as those that arrived at the previous rate.
/// The corresponding C function is `tcflush` with `TCIFLUSH`.
public func discardInput(_ descriptor: FileDescriptor, path: String) throws(SerialError) {
    _ = try retryingInterrupts { tcflush(descriptor.rawValue, TCIFLUSH) }.get("tcflush", path)
}
