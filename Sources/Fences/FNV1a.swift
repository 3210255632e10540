import JSONOutput

/// 64-bit FNV-1a: event ids (docs/events.md, stable across runs) and geometry hashes (same id and
/// geometry keep their state across reloads and restarts). Both are stored, so the function must
/// never change.
public struct FNV1a {
    public init() {}
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }

    /// The eight bytes of `word`, least significant first.
    mutating func add(_ word: UInt64) {
        var rest = word
        for _ in 0..<8 {
            add(byte: UInt8(truncatingIfNeeded: rest))
            rest >>= 8
        }
    }

    /// A text field, followed by a separator so that ("ab","c") and ("a","bc") differ.
    public mutating func add(_ text: String) {
        for byte in text.utf8 { add(byte: byte) }
        add(byte: 0xff)
    }

    public var hex: String { Hex.string(value, digits: 16) }
}
