/// XML's five named entities and its character references, decoded; anything else is kept as
/// written.
enum XMLEntities {
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == 0x26, let semicolon = raw[index...].prefix(12).firstIndex(of: 0x3B) else {
                out.append(byte)
                index += 1
                continue
            }
            let entity = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            if let replacement = named[entity] {
                out.append(replacement)
            } else if let scalar = characterReference(entity) {
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            } else {
                out.append(contentsOf: raw[index...semicolon])
            }
            index = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]

    static func characterReference(_ entity: String) -> Unicode.Scalar? {
        guard entity.hasPrefix("#") else { return nil }
        let digits = entity.dropFirst()
        let value: UInt32? =
            digits.hasPrefix("x") || digits.hasPrefix("X")
            ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init)
    }
}

/// A byte offset told as a line and column, for messages.
enum XMLPlace {
    static func lineAndColumn(of original: ByteSource, offset: Int) -> ImportPlace {
        guard let source = original.reopened() else { return .byte(offset) }
        var line = 1
        var column = 1
        var seen = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while seen < offset {
            let n = (try? chunk.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }) ?? 0
            if n == 0 { break }
            for byte in chunk[0..<min(n, offset - seen)] {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            seen += n
        }
        return .line(line, column: column, entry: source.entry)
    }
}
