import Platform

/// What sits behind a device path, as far as baud rates go.
public enum DeviceKind: String, Sendable, Equatable {
    /// USB CDC-ACM (u-blox and most modern receivers, `ttyACM*`): the USB link has no baud rate
    /// and the receiver ignores what termios sets, so there is nothing to hunt for.
    case cdcACM = "cdc-acm"
    /// A USB-serial bridge chip (Prolific, Silicon Labs, FTDI, WCH; `ttyUSB*`) in front of the
    /// receiver's UART: the rate must match the receiver's.
    case usbSerialBridge = "usb-serial"
    /// An on-board UART (`ttyS*`, `ttyAMA*`, a Raspberry Pi's `serial0`).
    case uart
    /// A pseudo-terminal, such as `gpsfence simulate`'s, which plays a UART's rate matching.
    case pseudoTerminal = "pty"
    case other

    /// Classifies `path` after following symlinks (`/dev/serial/by-id/...`, `/dev/gps0`).
    public static func of(_ path: String) -> DeviceKind {
        of(resolvedName: resolvePath(path))
    }

    static func of(resolvedName path: String) -> DeviceKind {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name.hasPrefix("ttyACM") { return .cdcACM }
        if name.hasPrefix("ttyUSB") { return .usbSerialBridge }
        if path.hasPrefix("/dev/pts/") { return .pseudoTerminal }
        if name.hasPrefix("ttyS") || name.hasPrefix("ttyAMA") || name.hasPrefix("ttymxc") || name.hasPrefix("serial") {
            return .uart
        }
        return .other
    }

    /// Whether autobaud should try several rates (docs/hardware.md: never on CDC-ACM).
    public var huntsBaud: Bool { self != .cdcACM }
}
