/// USB vendor and product ids of GPS receivers and of the bridge chips they are built on.
///
/// Sources: the ids gpsd's udev rules (gpsd.rules) match, and the vendors' own documentation.
public struct KnownReceiver: Sendable, Equatable {
    public enum Confidence: String, Sendable {
        /// The id belongs to a GPS receiver (u-blox, MediaTek, DeLorme, Garmin).
        case receiver
        /// A USB-serial bridge chip that many receivers use (GlobalSat BU-353 on a Prolific PL2303),
        /// but that could be any serial gadget.
        case bridge
    }

    public var vendorID: UInt16
    public var productIDs: ClosedRange<UInt16>
    public var name: String
    public var confidence: Confidence
    /// Something the user should know about this one.
    public var note: String?

    public static let all: [KnownReceiver] = [
        KnownReceiver(vendorID: 0x1546, productIDs: 0x01A5...0x01A5, name: "u-blox 5", confidence: .receiver),
        KnownReceiver(vendorID: 0x1546, productIDs: 0x01A6...0x01A6, name: "u-blox 6", confidence: .receiver),
        KnownReceiver(vendorID: 0x1546, productIDs: 0x01A7...0x01A7, name: "u-blox 7", confidence: .receiver),
        KnownReceiver(vendorID: 0x1546, productIDs: 0x01A8...0x01A8, name: "u-blox 8", confidence: .receiver),
        KnownReceiver(
            vendorID: 0x1546, productIDs: 0x01A9...0x01A9, name: "u-blox GNSS (M9/F9/M10)", confidence: .receiver),
        KnownReceiver(
            vendorID: 0x0E8D, productIDs: 0x3329...0x3329, name: "MediaTek MT3329 GPS", confidence: .receiver),
        KnownReceiver(
            vendorID: 0x1163, productIDs: 0x0100...0x0100, name: "DeLorme Earthmate USB", confidence: .receiver),
        KnownReceiver(
            vendorID: 0x1163, productIDs: 0x0200...0x0200, name: "DeLorme Earthmate LT-20/LT-40", confidence: .receiver),
        KnownReceiver(
            vendorID: 0x091E, productIDs: 0x0003...0x0003, name: "Garmin USB GPS", confidence: .receiver,
            note: "speaks Garmin's binary USB protocol, not NMEA, unless switched to NMEA output"),
        KnownReceiver(
            vendorID: 0x067B, productIDs: 0x2303...0x2303, name: "Prolific PL2303 (GlobalSat BU-353 and others)",
            confidence: .bridge),
        KnownReceiver(
            vendorID: 0x067B, productIDs: 0xAAA0...0xAAA0, name: "Prolific PL2303 (Magellan)", confidence: .bridge),
        KnownReceiver(vendorID: 0x10C4, productIDs: 0xEA60...0xEA60, name: "Silicon Labs CP210x", confidence: .bridge),
        KnownReceiver(vendorID: 0x0403, productIDs: 0x6001...0x6001, name: "FTDI FT232R", confidence: .bridge),
        KnownReceiver(vendorID: 0x0403, productIDs: 0x6015...0x6015, name: "FTDI FT-X", confidence: .bridge),
        KnownReceiver(vendorID: 0x1A86, productIDs: 0x7523...0x7523, name: "WCH CH340", confidence: .bridge),
    ]

    public static func match(vendor: UInt16?, product: UInt16?) -> KnownReceiver? {
        guard let vendor, let product else { return nil }
        return all.first { $0.vendorID == vendor && $0.productIDs.contains(product) }
    }
}
