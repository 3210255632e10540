/// One framed sentence: from its start character (`$` or `!`) to the last character before the line
/// end, with the checksum already verified.
///
/// It is a view into the framer's storage: valid only inside the callback that received it.
public struct RawSentence {
    /// The whole sentence, start character and `*HH` included.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The data part: after the start character, before the `*` (or to the end when there is none).
    public let body: UnsafeBufferPointer<UInt8>
    /// Whether the sentence carried a `*HH` checksum (which then matched).
    public let hasChecksum: Bool
    /// The address field ("GPGGA", "PGRME", "STI"), packed for comparisons without allocation.
    public let address: SentenceAddress

    enum Validation {
        case good(RawSentence)
        case badChecksum
        case malformed
    }

    /// Checks the checksum and the address field. The checksum is the XOR of every byte between the
    /// start character and the `*`, written as two hex digits in either case. `xorAfterStart` is
    /// the XOR of every byte after the start character, which the framer folds in as it copies; the
    /// `*HH` at the end is taken back out of it.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>, xorAfterStart: UInt8) -> Validation {
        let count = bytes.count
        guard count >= 2 else { return .malformed }
        var bodyEnd = count
        var hasChecksum = false
        if count >= 4, bytes[count - 3] == ASCII.star {
            guard let high = hexValue(bytes[count - 2]), let low = hexValue(bytes[count - 1]) else {
                return .malformed
            }
            bodyEnd = count - 3
            hasChecksum = true
            let sum = xorAfterStart ^ ASCII.star ^ bytes[count - 2] ^ bytes[count - 1]
            guard sum == high << 4 | low else { return .badChecksum }
        }
        let body = UnsafeBufferPointer(rebasing: bytes[1..<bodyEnd])
        // A `*` anywhere else means a checksum we cannot read: not a sentence we can trust.
        if !hasChecksum, body.contains(ASCII.star) { return .malformed }
        guard let address = SentenceAddress(body) else { return .malformed }
        return .good(RawSentence(bytes: bytes, body: body, hasChecksum: hasChecksum, address: address))
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// The address field of a sentence, up to eight characters, packed into an integer.
///
/// Standard sentences are a two-letter talker and a three-letter type ("GN" + "GGA"); proprietary
/// ones start with `P` and have no talker. Dispatch uses the type only, so any talker works.
public struct SentenceAddress: Hashable, Sendable, CustomStringConvertible {
    /// The characters, first in the lowest byte; unused bytes are zero.
    public let packed: UInt64
    public let length: Int

    /// Reads the address from the start of a sentence body. Letters and digits only, 1 to 8 of them.
    init?(_ body: UnsafeBufferPointer<UInt8>) {
        var packed: UInt64 = 0
        var length = 0
        for byte in body {
            if byte == ASCII.comma { break }
            guard length < 8, Self.isAddressCharacter(byte) else { return nil }
            packed |= UInt64(byte) << (8 * UInt64(length))
            length += 1
        }
        guard length > 0 else { return nil }
        self.packed = packed
        self.length = length
    }

    /// Builds an address from text, for tests and lookups ("GPGGA").
    public init?(_ text: String) {
        var utf8 = Array(text.utf8)
        let result: SentenceAddress? = utf8.withUnsafeMutableBufferPointer { SentenceAddress(UnsafeBufferPointer($0)) }
        guard let result, result.length == utf8.count else { return nil }
        self = result
    }

    static func isAddressCharacter(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    public var isProprietary: Bool { length > 0 && UInt8(truncatingIfNeeded: packed) == 0x50 }

    /// The sentence type: the last three characters of a five-character standard address, otherwise
    /// the whole address (proprietary and odd ones are counted under their full name).
    public var type: SentenceType {
        if length == 5, !isProprietary {
            return SentenceType(packed: packed >> 16, length: 3)
        }
        return SentenceType(packed: packed, length: length)
    }

    /// The talker of a standard five-character address ("GP", "GN", ...), else nil.
    public var talker: UInt16? {
        guard length == 5, !isProprietary else { return nil }
        return UInt16(truncatingIfNeeded: packed)
    }

    public var description: String { Self.text(packed, length) }

    static func text(_ packed: UInt64, _ length: Int) -> String {
        var characters: [UInt8] = []
        for index in 0..<length { characters.append(UInt8(truncatingIfNeeded: packed >> (8 * UInt64(index)))) }
        return String(decoding: characters, as: UTF8.self)
    }
}

/// A sentence type ("GGA", or a whole proprietary address such as "PGRME"), packed.
public struct SentenceType: Hashable, Sendable, CustomStringConvertible {
    public let packed: UInt64
    public let length: Int

    init(packed: UInt64, length: Int) {
        self.packed = packed
        self.length = length
    }

    public var description: String { SentenceAddress.text(packed, length) }

    // Constants rather than stored statics: dispatch compares against immediates, with no lazy
    // initialisation check per sentence.
    public static var gga: SentenceType { SentenceType(packed: 0x414747, length: 3) }  // "GGA"
    public static var rmc: SentenceType { SentenceType(packed: 0x434D52, length: 3) }  // "RMC"
    public static var gll: SentenceType { SentenceType(packed: 0x4C4C47, length: 3) }  // "GLL"
    public static var gns: SentenceType { SentenceType(packed: 0x534E47, length: 3) }  // "GNS"
    public static var gsa: SentenceType { SentenceType(packed: 0x415347, length: 3) }  // "GSA"
    public static var gsv: SentenceType { SentenceType(packed: 0x565347, length: 3) }  // "GSV"
    public static var gst: SentenceType { SentenceType(packed: 0x545347, length: 3) }  // "GST"
    public static var gbs: SentenceType { SentenceType(packed: 0x534247, length: 3) }  // "GBS"
    public static var vtg: SentenceType { SentenceType(packed: 0x475456, length: 3) }  // "VTG"
    public static var zda: SentenceType { SentenceType(packed: 0x41445A, length: 3) }  // "ZDA"
    public static var txt: SentenceType { SentenceType(packed: 0x545854, length: 3) }  // "TXT"
}
