/// One u-blox UBX frame: 0xB5 0x62, class, id, little-endian payload length, payload, and two
/// checksum bytes (8-bit Fletcher over class, id, length and payload). See docs/hardware.md.
public struct UBXFrame: Equatable, Sendable {
    public var messageClass: UInt8
    public var id: UInt8
    public var payload: [UInt8]

    public static let syncCharacters: (UInt8, UInt8) = (0xB5, 0x62)

    public init(messageClass: UInt8, id: UInt8, payload: [UInt8] = []) {
        self.messageClass = messageClass
        self.id = id
        self.payload = payload
    }

    /// The frame on the wire.
    public var bytes: [UInt8] {
        var body: [UInt8] = [messageClass, id, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8 & 0xFF)]
        body += payload
        let (a, b) = Self.checksum(body)
        return [Self.syncCharacters.0, Self.syncCharacters.1] + body + [a, b]
    }

    /// The 8-bit Fletcher checksum u-blox uses, over class, id, length and payload.
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> (UInt8, UInt8) {
        var a: UInt8 = 0
        var b: UInt8 = 0
        for byte in bytes {
            a &+= byte
            b &+= a
        }
        return (a, b)
    }
}

/// Collects UBX frames from a byte stream that also carries NMEA (what a u-blox sends): bytes
/// outside frames are ignored here (the NMEA framer reads them), frames with a bad checksum are
/// counted and dropped.
public struct UBXFrameParser: Sendable {
    /// Longest payload taken for a frame; a larger length is noise (docs/nmea.md).
    public static let maximumPayload = 8192

    private var pending: [UInt8] = []
    public private(set) var badChecksums = 0

    public init() {}

    /// Feeds bytes; returns the frames completed by them, in order.
    public mutating func push<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UBXFrame] {
        pending += bytes
        var frames: [UBXFrame] = []
        var start = 0
        scan: while start < pending.count {
            guard pending[start] == UBXFrame.syncCharacters.0 else {
                start += 1
                continue
            }
            guard start + 1 < pending.count else { break }
            guard pending[start + 1] == UBXFrame.syncCharacters.1 else {
                start += 1
                continue
            }
            guard start + 6 <= pending.count else { break }
            let length = Int(pending[start + 4]) | Int(pending[start + 5]) << 8
            guard length <= Self.maximumPayload else {
                start += 2
                continue
            }
            let end = start + 6 + length + 2
            guard end <= pending.count else { break scan }
            let (a, b) = UBXFrame.checksum(pending[(start + 2)..<(start + 6 + length)])
            if a == pending[end - 2] && b == pending[end - 1] {
                frames.append(
                    UBXFrame(
                        messageClass: pending[start + 2], id: pending[start + 3],
                        payload: Array(pending[(start + 6)..<(start + 6 + length)])))
                start = end
            } else {
                badChecksums += 1
                start += 2
            }
        }
        pending.removeFirst(start)
        return frames
    }
}
