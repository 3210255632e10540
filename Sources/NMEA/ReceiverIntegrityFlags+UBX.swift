/// The u-blox messages in which a receiver says itself whether it is jammed or spoofed, as class
/// and id pairs, and how each is read into `ReceiverIntegrityFlags` (layouts from u-blox's
/// interface descriptions, all fields little-endian; docs/hardware.md).
public enum UBXIntegrityMessage: CaseIterable, Sendable {
    /// UBX-NAV-STATUS (0x01 0x03), 16 bytes: `flags2` at offset 7, `spoofDetState` in bits 3-4.
    case navigationStatus
    /// UBX-MON-HW (0x0A 0x09), 60 bytes (generation 8): `flags` at offset 22, `jammingState` in
    /// bits 2-3; `jamInd` at offset 45.
    case hardwareMonitor
    /// UBX-MON-RF (0x0A 0x38): version, block count, two reserved bytes, then 24 bytes a block
    /// (RF front end): `flags` at offset 1 of a block, `jammingState` in bits 0-1; `jamInd` at 16.
    case radioMonitor
    /// UBX-SEC-SIG (0x27 0x09). Version 1 (12 bytes): `jamFlags` at offset 4 (`jammingState` in
    /// bits 1-2), `spfFlags` at offset 8 (`spoofingState` in bits 1-3). Version 2 and later:
    /// `sigSecFlags` at offset 1 (`jamState` bits 1-2, `spfState` bits 4-6), the count of jamming
    /// centre frequencies at offset 3, four bytes each after the first four.
    case signalSecurity

    public var messageClass: UInt8 {
        switch self {
        case .navigationStatus: 0x01
        case .hardwareMonitor, .radioMonitor: 0x0A
        case .signalSecurity: 0x27
        }
    }

    public var id: UInt8 {
        switch self {
        case .navigationStatus: 0x03
        case .hardwareMonitor: 0x09
        case .radioMonitor: 0x38
        case .signalSecurity: 0x09
        }
    }

    /// u-blox's name, for reports.
    public var name: String {
        switch self {
        case .navigationStatus: "UBX-NAV-STATUS"
        case .hardwareMonitor: "UBX-MON-HW"
        case .radioMonitor: "UBX-MON-RF"
        case .signalSecurity: "UBX-SEC-SIG"
        }
    }

    /// The message with this class and id, if it is one of these.
    @inline(__always)
    public static func named(messageClass: UInt8, id: UInt8) -> UBXIntegrityMessage? {
        switch (messageClass, id) {
        case (0x01, 0x03): .navigationStatus
        case (0x0A, 0x09): .hardwareMonitor
        case (0x0A, 0x38): .radioMonitor
        case (0x27, 0x09): .signalSecurity
        default: nil
        }
    }

    /// Longest payload of these messages that is read (MON-RF with eight front ends, SEC-SIG with
    /// 32 centre frequencies); a longer one is skipped unread.
    public static let maximumPayload = 4 + 8 * 24
}

extension ReceiverIntegrityFlags {
    /// Takes what one of `UBXIntegrityMessage` says (its payload, checksum already checked);
    /// fields it does not carry keep their value. Returns false, changing nothing, for a payload
    /// shorter than its layout or of an unknown version.
    @discardableResult
    public mutating func take<Payload: RandomAccessCollection<UInt8>>(
        _ message: UBXIntegrityMessage, payload: Payload
    ) -> Bool where Payload.Index == Int {
        let p = payload
        let base = p.startIndex
        switch message {
        case .navigationStatus:
            guard p.count >= 16 else { return false }
            spoofing = Spoofing(rawValue: p[base + 7] >> 3 & 0x3) ?? .unknown
        case .hardwareMonitor:
            guard p.count >= 60 else { return false }
            jamming = Jamming(rawValue: p[base + 22] >> 2 & 0x3) ?? .unknown
            jammingIndicator = p[base + 45]
        case .radioMonitor:
            guard p.count >= 4 else { return false }
            let blocks = Int(p[base + 1])
            guard blocks >= 1, p.count >= 4 + 24 * blocks else { return false }
            // The worst front end speaks for the receiver.
            var worst = Jamming.unknown
            var indicator: UInt8 = 0
            for block in 0..<blocks {
                let start = base + 4 + 24 * block
                let state = Jamming(rawValue: p[start + 1] & 0x3) ?? .unknown
                if state.rawValue > worst.rawValue { worst = state }
                indicator = max(indicator, p[start + 16])
            }
            jamming = worst
            jammingIndicator = indicator
        case .signalSecurity:
            guard p.count >= 4 else { return false }
            switch p[base] {
            case 1:
                guard p.count >= 12 else { return false }
                jamming = p[base + 4] & 0x1 == 0 ? .unknown : Jamming(rawValue: p[base + 4] >> 1 & 0x3) ?? .unknown
                spoofing =
                    p[base + 8] & 0x1 == 0 ? .unknown : Spoofing(rawValue: min(3, p[base + 8] >> 1 & 0x7)) ?? .unknown
            case 2...:
                guard p.count >= 4 + 4 * Int(p[base + 3]) else { return false }
                let flags = p[base + 1]
                jamming = flags & 0x1 == 0 ? .unknown : Jamming(rawValue: flags >> 1 & 0x3) ?? .unknown
                spoofing = flags & 0x8 == 0 ? .unknown : Spoofing(rawValue: min(3, flags >> 4 & 0x7)) ?? .unknown
            default:
                return false
            }
        }
        return true
    }
}
