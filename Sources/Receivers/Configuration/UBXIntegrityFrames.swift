import NMEA

/// The receiver's own jamming and spoofing reports as frames (what an emulated u-blox sends and
/// tests feed the decoder), and the settings that turn them on: each message's output rate
/// (CFG-MSG on generation 8, a CFG-VALSET key on 9 and 10) and the jamming monitor (CFG-ITFM).
/// Layouts as `UBXIntegrityMessage` reads them; docs/hardware.md.
extension UBXIntegrityMessage {
    /// The message saying `flags`. `detects`: the receiver's jamming monitor is on (CFG-ITFM);
    /// without it, a receiver reports no jamming state. `timeOfWeek`: GPS time of week, ms.
    public func frame(_ flags: ReceiverIntegrityFlags, detects: Bool, timeOfWeek: UInt32 = 0) -> UBXFrame {
        let jamming = detects ? flags.jamming.rawValue : 0
        var payload: [UInt8]
        switch self {
        case .navigationStatus:
            // 3D fix, fix valid, week and time of week set.
            payload = littleEndian(timeOfWeek) + [0x03, 0x0D, 0x00, flags.spoofing.rawValue << 3]
            payload += littleEndian(UInt32(25_000)) + littleEndian(timeOfWeek)
        case .hardwareMonitor:
            payload = [UInt8](repeating: 0, count: 60)
            payload[16] = 80  // noisePerMS
            payload[20] = 2  // antenna OK
            payload[21] = 1  // antenna powered
            payload[22] = jamming << 2
            payload[45] = flags.jammingIndicator ?? 0
        case .radioMonitor:
            var block = [UInt8](repeating: 0, count: 24)
            block[1] = jamming
            block[2] = 2  // antenna OK
            block[3] = 1  // antenna powered
            block[12] = 80  // noisePerMS
            block[16] = flags.jammingIndicator ?? 0
            payload = [0, 1, 0, 0] + block
        case .signalSecurity:
            // Version 1: jamFlags, then spfFlags, each with its "detection enabled" bit.
            payload = [
                1, 0, 0, 0, (detects ? 1 : 0) | jamming << 1, 0, 0, 0, 1 | flags.spoofing.rawValue << 1, 0, 0, 0,
            ]
        }
        return UBXFrame(messageClass: messageClass, id: id, payload: payload)
    }

    /// Which receivers send it: UBX-MON-HW up to generation 8; UBX-MON-RF and UBX-SEC-SIG from
    /// generation 9 (protocol 27 and 31), which configure through CFG-VALSET.
    public func isSent(byValueSetGeneration valueSet: Bool) -> Bool {
        switch self {
        case .navigationStatus: true
        case .hardwareMonitor: !valueSet
        case .radioMonitor, .signalSecurity: valueSet
        }
    }

    /// CFG-MSGOUT-UBX_xxx_UART1: its output rate on UART 1 (generation 9 and 10).
    public var valueSetKey: UBXConfigurationKey? {
        switch self {
        case .navigationStatus: UBXConfigurationKey(0x2091_001B)
        case .hardwareMonitor: nil
        case .radioMonitor: UBXConfigurationKey(0x2091_035A)
        case .signalSecurity: UBXConfigurationKey(0x2091_0635)
        }
    }

    /// The message whose CFG-VALSET output key this is.
    public static func valueSet(_ key: UBXConfigurationKey) -> UBXIntegrityMessage? {
        allCases.first { $0.valueSetKey == key }
    }
}

extension UBXConfigurationKey {
    /// CFG-ITFM-ENABLE: the jamming and interference monitor (one bit).
    public static let interferenceMonitor = UBXConfigurationKey(0x1041_000D)
    /// CFG-UART1OUTPROT-UBX: UBX among the protocols UART 1 sends (one bit).
    public static let uart1UBXOutput = UBXConfigurationKey(0x1074_0001)
}

/// UBX-CFG-ITFM (0x06 0x39), generation 8: the jamming and interference monitor. Two words:
/// `config` (broadband threshold bits 0-3, CW threshold bits 4-8, algorithm bits 9-30, enable
/// bit 31) and `config2` (general bits 0-11, antenna setting bits 12-13). The thresholds and bits
/// are u-blox's recommended values for an unknown antenna.
public struct UBXInterferenceMonitor: Equatable, Sendable {
    public var enabled: Bool

    public init(enabled: Bool) { self.enabled = enabled }

    public static let kind: (UInt8, UInt8) = (0x06, 0x39)

    public init?(_ frame: UBXFrame) {
        guard frame.messageClass == 0x06, frame.id == 0x39, frame.payload.count == 8 else { return nil }
        enabled = frame.payload[3] & 0x80 != 0
    }

    public var frame: UBXFrame {
        // Piece by piece: the type checker gives up on one long expression of literals.
        var config: UInt32 = 3
        config |= 15 << 4
        config |= 0x16B156 << 9
        if enabled { config |= 1 << 31 }
        let config2: UInt32 = 0x31E
        return UBXFrame(messageClass: 0x06, id: 0x39, payload: littleEndian(config) + littleEndian(config2))
    }
}
