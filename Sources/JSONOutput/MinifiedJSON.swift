/// JSON text without the white space between tokens, and with DEL and C1 inside strings escaped as
/// the writer escapes them (docs/formats.md): a fence's properties are carried as its file wrote
/// them, possibly over several lines, and an event must stay on one line (JSON Lines). The
/// properties are minified once, when the fences are loaded, and copied as bytes into every event.
public enum MinifiedJSON {
    /// Whether `text` is already as `append` would write it (the common case: files written by a
    /// program, imports), so that it can be kept as it is.
    @inlinable
    public static func isMinified<Bytes: Collection<UInt8>>(_ text: Bytes) -> Bool {
        var inString = false
        var escaped = false
        for byte in text {
            if inString {
                if byte == 0x7F || byte == 0xC2 { return false }
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
            } else if byte == 0x22 {
                inString = true
            } else if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                return false
            }
        }
        return true
    }

    /// `text` minified into `out`.
    public static func append<Bytes: Collection<UInt8>>(_ text: Bytes, to out: JSONBuffer) {
        var inString = false
        var escaped = false
        var afterC2 = false
        for byte in text {
            if inString {
                if afterC2 {
                    afterC2 = false
                    if (0x80...0x9F).contains(byte) {
                        out.writeUnicodeEscape(byte)
                        continue
                    }
                    out.append(byte: 0xC2)
                }
                if byte == 0xC2 {
                    afterC2 = true
                    continue
                }
                if byte == 0x7F {
                    out.writeUnicodeEscape(byte)
                    continue
                }
                out.append(byte: byte)
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
            } else if byte == 0x22 {
                inString = true
                out.append(byte: byte)
            } else if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 {
                out.append(byte: byte)
            }
        }
    }

    /// `text` minified, as bytes.
    public static func bytes<Bytes: Collection<UInt8>>(_ text: Bytes) -> [UInt8] {
        let out = JSONBuffer(capacity: text.count)
        append(text, to: out)
        return out.bytes
    }

    /// `text` (minified, as the writer writes it) with a space after each `,` and `:` between
    /// tokens: the one-line layout people write by hand, for a feature added to their file.
    public static func spaced<Bytes: Collection<UInt8>>(_ text: Bytes) -> String {
        var result: [UInt8] = []
        result.reserveCapacity(text.count + text.count / 4)
        var inString = false
        var escaped = false
        for byte in text {
            result.append(byte)
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
            } else if byte == 0x22 {
                inString = true
            } else if byte == 0x2C || byte == 0x3A {
                result.append(0x20)
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
