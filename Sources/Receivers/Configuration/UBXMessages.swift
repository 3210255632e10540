import Platform

/// The UBX messages `configure` sends and reads, with their layouts from u-blox's interface
/// descriptions (all fields little-endian). See docs/hardware.md.
public enum UBXMessage {
    /// Class and id pairs.
    public enum Kind: Equatable, Sendable {
        public static let ackNak: (UInt8, UInt8) = (0x05, 0x00)
        public static let ackAck: (UInt8, UInt8) = (0x05, 0x01)
        public static let cfgPrt: (UInt8, UInt8) = (0x06, 0x00)
        public static let cfgMsg: (UInt8, UInt8) = (0x06, 0x01)
        public static let cfgRate: (UInt8, UInt8) = (0x06, 0x08)
        public static let cfgCfg: (UInt8, UInt8) = (0x06, 0x09)
        public static let cfgValset: (UInt8, UInt8) = (0x06, 0x8A)
        public static let monVer: (UInt8, UInt8) = (0x0A, 0x04)
    }

    /// A poll: the message with an empty payload (MON-VER, CFG-RATE, ...).
    public static func poll(_ kind: (UInt8, UInt8)) -> UBXFrame { UBXFrame(messageClass: kind.0, id: kind.1) }
}

/// UBX-ACK-ACK or UBX-ACK-NAK: the receiver's answer to one CFG message, naming it.
public struct UBXAcknowledgement: Equatable, Sendable {
    public var accepted: Bool
    public var messageClass: UInt8
    public var id: UInt8

    public init(accepted: Bool, messageClass: UInt8, id: UInt8) {
        self.accepted = accepted
        self.messageClass = messageClass
        self.id = id
    }

    /// Nil when the frame is not an ACK-ACK or ACK-NAK of the documented length.
    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x05, frame.id <= 0x01, frame.payload.count == 2 else { return nil }
        self.init(accepted: frame.id == 0x01, messageClass: frame.payload[0], id: frame.payload[1])
    }

    public var frame: UBXFrame {
        UBXFrame(messageClass: 0x05, id: accepted ? 0x01 : 0x00, payload: [messageClass, id])
    }
}

/// UBX-MON-VER: software and hardware version, then 30-character extension strings
/// (`PROTVER=18.00`, `MOD=NEO-M8N`, `FWVER=SPG 3.01`, ...), all NUL-padded.
public struct UBXVersion: Equatable, Sendable {
    public var software: String
    public var hardware: String
    public var extensions: [String]

    public init(software: String, hardware: String, extensions: [String]) {
        self.software = software
        self.hardware = hardware
        self.extensions = extensions
    }

    public init?(_ frame: UBXFrame) {
        let payload = frame.payload
        guard frame.messageClass == 0x0A, frame.id == 0x04, payload.count >= 40, (payload.count - 40) % 30 == 0 else {
            return nil
        }
        func text(_ range: Range<Int>) -> String {
            String(decoding: payload[range].prefix { $0 != 0 }, as: UTF8.self)
        }
        software = text(0..<30)
        hardware = text(30..<40)
        extensions = stride(from: 40, to: payload.count, by: 30).map { text($0..<($0 + 30)) }
    }

    public var frame: UBXFrame {
        func field(_ text: String, _ width: Int) -> [UInt8] {
            let bytes = Array(text.utf8.prefix(width - 1))
            return bytes + [UInt8](repeating: 0, count: width - bytes.count)
        }
        let payload = field(software, 30) + field(hardware, 10) + extensions.flatMap { field($0, 30) }
        return UBXFrame(messageClass: 0x0A, id: 0x04, payload: payload)
    }

    /// The protocol version (`PROTVER=` or `PROTVER ` extension): 23 and above is a generation 9
    /// or 10 receiver, configured through CFG-VALSET only on M10.
    public var protocolVersion: Double? {
        for item in extensions where item.hasPrefix("PROTVER") {
            return Double(item.dropFirst("PROTVER".count + 1).trimmingPrefix(" "))
        }
        return nil
    }

    /// The module name (`MOD=` extension), when the firmware gives it.
    public var module: String? {
        extensions.first { $0.hasPrefix("MOD=") }.map { String($0.dropFirst(4)) }
    }
}

/// UBX-CFG-RATE: measurement period in milliseconds, navigation cycles per measurement, time
/// reference (0 UTC, 1 GPS).
public struct UBXRate: Equatable, Sendable {
    public var measurementMilliseconds: UInt16
    public var navigationCycles: UInt16 = 1
    public var timeReference: UInt16 = 1

    public init(measurementMilliseconds: UInt16, navigationCycles: UInt16 = 1, timeReference: UInt16 = 1) {
        self.measurementMilliseconds = measurementMilliseconds
        self.navigationCycles = navigationCycles
        self.timeReference = timeReference
    }

    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x06, frame.id == 0x08, frame.payload.count == 6 else { return nil }
        let p = frame.payload
        self.init(
            measurementMilliseconds: UInt16(p[0]) | UInt16(p[1]) << 8,
            navigationCycles: UInt16(p[2]) | UInt16(p[3]) << 8,
            timeReference: UInt16(p[4]) | UInt16(p[5]) << 8)
    }

    public var frame: UBXFrame {
        UBXFrame(
            messageClass: 0x06, id: 0x08,
            payload: littleEndian(measurementMilliseconds) + littleEndian(navigationCycles)
                + littleEndian(timeReference))
    }
}

/// UBX-CFG-MSG, short form: the output rate of one message on the current port (per navigation
/// solution; 0 turns it off). NMEA standard sentences are class 0xF0 (GGA 0x00, GLL 0x01,
/// GSA 0x02, GSV 0x03, RMC 0x04, VTG 0x05, GST 0x07, ZDA 0x08, GNS 0x0D).
public struct UBXMessageRate: Equatable, Sendable {
    public var messageClass: UInt8
    public var id: UInt8
    public var rate: UInt8

    public init(messageClass: UInt8, id: UInt8, rate: UInt8) {
        self.messageClass = messageClass
        self.id = id
        self.rate = rate
    }

    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x06, frame.id == 0x01, frame.payload.count == 3 else { return nil }
        self.init(messageClass: frame.payload[0], id: frame.payload[1], rate: frame.payload[2])
    }

    public var frame: UBXFrame { UBXFrame(messageClass: 0x06, id: 0x01, payload: [messageClass, id, rate]) }

    /// The NMEA standard message id of a sentence type (`GGA`), nil for one u-blox does not send.
    public static func nmeaID(_ sentence: String) -> UInt8? { ConfigurableSentence.named(sentence)?.ubxMessageID }
}

/// UBX-CFG-PRT for a UART: port 1, 8N1 (mode 0x08D0), the baud rate, and the protocols in and
/// out (bit 0 UBX, bit 1 NMEA, bit 5 RTCM3 in).
public struct UBXPortSettings: Equatable, Sendable {
    public var port: UInt8 = 1
    public var baudRate: UInt32
    public var inProtocols: UInt16 = 0x0007
    public var outProtocols: UInt16 = 0x0003

    public init(port: UInt8 = 1, baudRate: UInt32, inProtocols: UInt16 = 0x0007, outProtocols: UInt16 = 0x0003) {
        self.port = port
        self.baudRate = baudRate
        self.inProtocols = inProtocols
        self.outProtocols = outProtocols
    }

    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x06, frame.id == 0x00, frame.payload.count == 20 else { return nil }
        let p = frame.payload
        // One step at a time: Swift 6.2's type checker gives up on the whole chain (the arm64 build).
        var baudRate = UInt32(p[8])
        baudRate |= UInt32(p[9]) << 8
        baudRate |= UInt32(p[10]) << 16
        baudRate |= UInt32(p[11]) << 24
        let inProtocols = UInt16(p[12]) | UInt16(p[13]) << 8
        let outProtocols = UInt16(p[14]) | UInt16(p[15]) << 8
        self.init(port: p[0], baudRate: baudRate, inProtocols: inProtocols, outProtocols: outProtocols)
    }

    public var frame: UBXFrame {
        let mode: UInt32 = 0x0000_08D0
        // Appended piece by piece: Swift 6.2's type checker gives up on one long sum (the arm64 build).
        var payload: [UInt8] = [port, 0]
        payload += littleEndian(UInt16(0))
        payload += littleEndian(mode)
        payload += littleEndian(baudRate)
        payload += littleEndian(inProtocols)
        payload += littleEndian(outProtocols)
        payload += littleEndian(UInt16(0))
        payload += littleEndian(UInt16(0))
        return UBXFrame(messageClass: 0x06, id: 0x00, payload: payload)
    }
}

/// UBX-CFG-CFG: save the current configuration (every section) to battery-backed RAM and flash.
public struct UBXSaveConfiguration: Equatable, Sendable {
    /// Bit 0 BBR, bit 1 flash, bit 2 EEPROM, bit 4 SPI flash.
    public var devices: UInt8 = 0x17

    public init(devices: UInt8 = 0x17) { self.devices = devices }

    public var frame: UBXFrame {
        UBXFrame(
            messageClass: 0x06, id: 0x09,
            payload: [littleEndian(UInt32(0)), littleEndian(UInt32(0xFFFF)), littleEndian(UInt32(0)), [devices]]
                .flatMap { $0 })
    }
}

/// A configuration key of generation 9 and 10 receivers. The size of its value is in bits 28-30
/// of the key id (1: one bit, stored as a byte; 2: one byte; 3: two; 4: four; 5: eight).
public struct UBXConfigurationKey: Hashable, Sendable {
    public var id: UInt32

    public init(_ id: UInt32) { self.id = id }

    public var valueSize: Int {
        switch id >> 28 & 0x7 {
        case 1, 2: 1
        case 3: 2
        case 4: 4
        case 5: 8
        default: 0
        }
    }

    public static let rateMeasurement = UBXConfigurationKey(0x3021_0001)
    public static let rateNavigation = UBXConfigurationKey(0x3021_0002)
    public static let uart1BaudRate = UBXConfigurationKey(0x4052_0001)

    /// CFG-MSGOUT-NMEA_ID_xxx_UART1: output rate of one NMEA sentence on UART 1.
    public static func nmeaOutputUART1(_ sentence: String) -> UBXConfigurationKey? {
        ConfigurableSentence.named(sentence)?.valueSetKey.map(UBXConfigurationKey.init)
    }
}

/// UBX-CFG-VALSET: set keys in the chosen layers (bit 0 RAM, bit 1 BBR, bit 2 flash). The
/// receiver applies all of them or none: one unknown key refuses the whole message with a NAK.
public struct UBXValueSet: Equatable, Sendable {
    public var layers: UInt8
    public var values: [(key: UBXConfigurationKey, value: UInt64)]

    public init(layers: UInt8, values: [(key: UBXConfigurationKey, value: UInt64)]) {
        self.layers = layers
        self.values = values
    }

    public static let ram: UInt8 = 0x01
    public static let batteryBacked: UInt8 = 0x02
    public static let flash: UInt8 = 0x04

    public static func == (lhs: UBXValueSet, rhs: UBXValueSet) -> Bool {
        lhs.layers == rhs.layers && lhs.values.map(\.key) == rhs.values.map(\.key)
            && lhs.values.map(\.value) == rhs.values.map(\.value)
    }

    /// Nil when the payload is not version 0 or a key's value runs past its end; keys of unknown
    /// size end the parse (the receiver would refuse them).
    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x06, frame.id == 0x8A, frame.payload.count >= 4, frame.payload[0] == 0 else {
            return nil
        }
        let p = frame.payload
        var values: [(key: UBXConfigurationKey, value: UInt64)] = []
        var index = 4
        while index + 4 <= p.count {
            let key = UBXConfigurationKey(
                UInt32(p[index]) | UInt32(p[index + 1]) << 8 | UInt32(p[index + 2]) << 16 | UInt32(p[index + 3]) << 24)
            let size = key.valueSize
            guard size > 0, index + 4 + size <= p.count else { return nil }
            var value: UInt64 = 0
            for offset in 0..<size { value |= UInt64(p[index + 4 + offset]) << (8 * UInt64(offset)) }
            values.append((key, value))
            index += 4 + size
        }
        guard index == p.count else { return nil }
        self.init(layers: p[1], values: values)
    }

    public var frame: UBXFrame {
        var payload: [UInt8] = [0, layers, 0, 0]
        for (key, value) in values {
            payload += littleEndian(key.id)
            for offset in 0..<key.valueSize { payload.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(offset)))) }
        }
        return UBXFrame(messageClass: 0x06, id: 0x8A, payload: payload)
    }
}

func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    (0..<(T.bitWidth / 8)).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
