import JSONOutput

/// Reads circle fences from CSV: a header line `id,name,lat,lon,radius_m`, then one circle per
/// line. Fields may be quoted ("a, b" with "" for a quote). An empty id is derived from the
/// circle and its name (`FenceSetBuilder.derivedID`).
/// Ids that are JSON numbers (e.g. `17`) are numbers, anything else is a string.
struct CSVLoader {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    static let header = ["id", "name", "lat", "lon", "radius_m"]

    func load() throws(FenceLoadError) -> FenceSetBuilder {
        var builder = FenceSetBuilder(file: file, expectedCount: bytes.count / 40)
        var pos = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { pos = 3 }
        var line = 0
        var sawHeader = false
        var fields: [String] = []
        while pos < bytes.count {
            line += 1
            let start = pos
            fields.removeAll(keepingCapacity: true)
            pos = try splitLine(from: pos, into: &fields, line: line)
            if fields.count == 1 && fields[0].allSatisfy({ $0 == " " || $0 == "\t" }) { continue }  // blank
            if !sawHeader {
                let names = fields.map { $0.trimmingSpaces.lowercased() }
                guard names == Self.header else {
                    throw FenceLoadError(
                        file: file,
                        problem: "line \(line): header is '"
                            + String(decoding: bytes[start..<min(pos, start + 80)], as: UTF8.self).trimmingSpaces
                            + "', want 'id,name,lat,lon,radius_m'")
                }
                sawHeader = true
                continue
            }
            let index = builder.count
            let idText = fields.first?.trimmingSpaces ?? ""
            let id: FenceID? = idText.isEmpty ? nil : (isJSONNumber(idText) ? .number(idText) : .string(idText))
            func fail(_ problem: String) -> FenceLoadError {
                FenceLoadError(
                    file: file, featureIndex: index, featureID: id?.json,
                    problem: "line \(line): " + problem)
            }
            guard fields.count == 5 else {
                throw fail(
                    "has \(fields.count) field\(fields.count == 1 ? "" : "s"); want 5 (id,name,lat,lon,radius_m)")
            }
            func number(_ k: Int, _ what: String) throws(FenceLoadError) -> Double {
                let t = fields[k].trimmingSpaces
                guard !t.isEmpty else { throw fail("\(what) is missing") }
                guard isJSONNumber(t) || Double(t) != nil, let v = Double(t) else {
                    throw fail("\(what) '\(t)' is not a number")
                }
                return v
            }
            let lat = try number(2, "lat")
            let lon = try number(3, "lon")
            let radius = try number(4, "radius_m")
            let name = fields[1].trimmingSpaces
            let json = JSONBuffer(capacity: 64 + name.utf8.count)
            json.beginObject()
            json.key("name")
            json.value(name)
            json.key("radius")
            json.value(radius, decimals: JSONPrecision.metres)
            json.endObject()
            let props = json.string
            do {
                try builder.addCircle(
                    id: id, name: name.isEmpty ? nil : name, settings: FenceSettings(),
                    properties: Array(props.utf8), CircleShape(lat: lat, lon: lon, radius: radius))
            } catch {
                throw fail(error.problem)
            }
        }
        if !sawHeader {
            throw FenceLoadError(file: file, problem: "empty CSV: want a header 'id,name,lat,lon,radius_m'")
        }
        return builder
    }

    /// Splits one line (quotes respected) and returns the offset after its line break.
    func splitLine(from start: Int, into fields: inout [String], line: Int) throws(FenceLoadError) -> Int {
        var pos = start
        var field: [UInt8] = []
        var quoted = false
        while pos < bytes.count {
            let c = bytes[pos]
            if quoted {
                if c == 0x22 {
                    if pos + 1 < bytes.count && bytes[pos + 1] == 0x22 {
                        field.append(0x22)
                        pos += 2
                        continue
                    }
                    quoted = false
                } else {
                    field.append(c)
                }
                pos += 1
                continue
            }
            switch c {
            case 0x22 where field.allSatisfy({ $0 == 0x20 }):
                field.removeAll()
                quoted = true
            case 0x2C:
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case 0x0A:
                fields.append(String(decoding: field, as: UTF8.self))
                return pos + 1
            case 0x0D:
                break
            default:
                field.append(c)
            }
            pos += 1
        }
        if quoted {
            throw FenceLoadError(file: file, problem: "line \(line): unterminated quoted field")
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return pos
    }
}

extension String {
    /// Without spaces, tabs, CR and LF at either end. By scalars: "\r\n" is one Character, which
    /// a Character comparison with "\r" or "\n" would miss.
    var trimmingSpaces: String {
        var s = Substring(self).unicodeScalars
        func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\n" }
        while let f = s.first, isSpace(f) { s = s.dropFirst() }
        while let l = s.last, isSpace(l) { s = s.dropLast() }
        return String(s)
    }
}

/// Whether `s` is a JSON number literal, and nothing else: no white space around it either (the
/// scanner skips it, and an id kept as number text goes into event JSON as it is; the fence fuzzer
/// found a CSV id "\r\n 2" that split an event's JSON line).
func isJSONNumber(_ s: String) -> Bool {
    let bytes = Array(s.utf8)
    guard let first = bytes.first, let last = bytes.last,
        first == 0x2D || (0x30...0x39).contains(first), (0x30...0x39).contains(last)
    else { return false }
    return bytes.withUnsafeBufferPointer { b in
        var scanner = JSONScanner(b)
        guard (try? scanner.number()) != nil else { return false }
        return scanner.pos == b.count
    }
}
