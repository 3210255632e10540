/// A serial device found on the system, with what its USB parent says about it.
public struct SerialDeviceInfo: Sendable, Equatable {
    /// The device node, e.g. "/dev/ttyACM0".
    public var node: String
    /// The stable `/dev/serial/by-id/...` link to it, when udev made one.
    public var byID: String?
    public var vendorID: UInt16?
    public var productID: UInt16?
    public var manufacturer: String?
    public var product: String?
    public var serial: String?
    /// The kernel driver: cdc_acm, pl2303, cp210x, ftdi_sio, ch341, ...
    public var driver: String?

    public init(node: String) { self.node = node }

    /// The path to use: the by-id link survives replugging into another port.
    public var preferredPath: String { byID ?? node }

    /// "1546:01a8".
    public var usbID: String? {
        guard let vendorID, let productID else { return nil }
        return hex4(vendorID) + ":" + hex4(productID)
    }
}

package func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
}

package func parseHex4(_ text: String?) -> UInt16? {
    guard let text else { return nil }
    return UInt16(text.trimmingCharacters(), radix: 16)
}

extension String {
    package func trimmingCharacters() -> String {
        var slice = Substring(self)
        while let last = slice.last, last.isWhitespace || last == "\0" { slice = slice.dropLast() }
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        return String(slice)
    }
}
