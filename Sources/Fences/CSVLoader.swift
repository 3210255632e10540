import JSONInput
import JSONOutput

/// Reads circle fences from CSV as spreadsheets write it: a header line naming the columns
/// (`CSVColumns`: latitude, longitude and radius required, id and name optional, any order), then
/// one circle per line. Every other named column is a property of the fence, read as a GeoJSON
/// property would be (`CSVCell`), so `clearance`, `approach` or `speed_limit_kmh` work from CSV.
/// Fields may be quoted ("a, b" with "" for a quote). An empty id is derived from the circle and
/// its name (`FenceSetBuilder.derivedID`). Ids that are JSON numbers (e.g. `17`) are numbers,
/// anything else is a string. A header with semicolons and no comma (what spreadsheets write where
/// the comma is the decimal mark) makes `;` the separator, and a decimal comma in its numbers is read.
struct CSVLoader {
    let bytes: UnsafeBufferPointer<UInt8>
    let file: String
    /// `,`, or `;` for a file whose header is separated by semicolons.
    private let separator: UInt8

    init(bytes: UnsafeBufferPointer<UInt8>, file: String) {
        self.bytes = bytes
        self.file = file
        separator = Self.separator(of: bytes, from: Self.hasByteOrderMark(bytes) ? 3 : 0)
    }

    static func hasByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    func load() throws(FenceLoadError) -> FenceSetBuilder {
        var builder = FenceSetBuilder(file: file, expectedCount: bytes.count / 40)
        builder.reserveIDs(bytes.count / 40)
        var pos = 0
        if Self.hasByteOrderMark(bytes) { pos = 3 }
        var line = 0
        var columns: CSVColumns?
        var fields: [String] = []
        while pos < bytes.count {
            line += 1
            let start = pos
            fields.removeAll(keepingCapacity: true)
            pos = try splitLine(from: pos, into: &fields, line: line)
            if fields.count == 1 && fields[0].allSatisfy({ $0 == " " || $0 == "\t" }) { continue }  // blank
            guard let columns else {
                switch CSVColumns.read(fields) {
                case .success(let read): columns = read
                case .failure(let problem):
                    throw FenceLoadError(
                        file: file,
                        problem: .csvHeader(
                            line: line,
                            written: String(decoding: bytes[start..<min(pos, start + 80)], as: UTF8.self)
                                .trimmingSpaces,
                            problem, oneColumn: fields.count == 1))
                }
                continue
            }
            let index = builder.count
            let idText = columns.id.map { field(fields, $0) } ?? ""
            let id: FenceID? = idText.isEmpty ? nil : (isJSONNumber(idText) ? .number(idText) : .string(idText))
            func fail(_ problem: FenceProblem) -> FenceLoadError {
                FenceLoadError(file: file, featureIndex: index, featureID: id?.json, problem: .onLine(line, problem))
            }
            guard fields.count == columns.count else {
                throw fail(.fieldCount(fields.count, columns: columns.names))
            }
            func number(_ k: Int) throws(FenceLoadError) -> Double {
                let what = columns.names[k]
                let written = field(fields, k)
                guard !written.isEmpty else { throw fail(.cellMissing(column: what)) }
                let t = separator == 0x3B ? Self.decimalPoint(written) : written
                guard isJSONNumber(t) || Double(t) != nil, let v = Double(t) else {
                    throw fail(.cellNotANumber(column: what, written: t))
                }
                return v
            }
            let lat = try number(columns.lat)
            let lon = try number(columns.lon)
            let radius = try number(columns.radius)
            let name = columns.name.map { field(fields, $0) }
            let json = JSONBuffer(capacity: 64 + (name?.utf8.count ?? 0))
            json.beginObject()
            if let name {
                json.key("name")
                json.value(name)
            }
            json.key("radius")
            json.value(radius, decimals: JSONPrecision.metres)
            for property in columns.properties {
                let text = field(fields, property.index)
                // An empty cell is a property not given, as a blank in a spreadsheet means.
                if text.isEmpty { continue }
                json.key(property.key)
                CSVCell.append(text, key: property.key, to: json)
            }
            json.endObject()
            let props = Array(json.string.utf8)
            let settings = columns.properties.isEmpty ? FenceSettings() : try self.settings(props, fail: fail)
            do {
                try builder.addCircle(
                    id: id, name: (name ?? "").isEmpty ? nil : name, settings: settings,
                    properties: props, CircleShape(lat: lat, lon: lon, radius: radius))
            } catch {
                throw fail(error.problem)
            }
        }
        if columns == nil {
            throw FenceLoadError(file: file, problem: .emptyCSV)
        }
        return builder
    }

    /// `;` when the first line (the header) has semicolons outside quotes and no comma, else `,`.
    static func separator(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> UInt8 {
        var quoted = false
        var semicolons = 0
        for c in bytes[start...] {
            if c == 0x22 { quoted.toggle() }
            if quoted { continue }
            if c == 0x0A { break }
            if c == 0x2C { return 0x2C }
            if c == 0x3B { semicolons += 1 }
        }
        return semicolons > 0 ? 0x3B : 0x2C
    }

    /// `47,3769` as `47.3769`: one comma between digits, in a file separated by semicolons.
    static func decimalPoint(_ text: String) -> String {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].last?.isNumber == true, parts[1].first?.isNumber == true else { return text }
        return parts[0] + "." + parts[1]
    }

    /// Field `index` trimmed.
    func field(_ fields: [String], _ index: Int) -> String {
        fields[index].trimmingSpaces
    }

    /// The settings in a fence's properties, read by the GeoJSON loader's own reader so that a
    /// property means the same, with the same checks, in either format.
    func settings(_ properties: [UInt8], fail: (FenceProblem) -> FenceLoadError) throws(FenceLoadError)
        -> FenceSettings
    {
        var settings = FenceSettings()
        var pending: FenceProblem?
        let read: Bool = properties.withUnsafeBufferPointer { buffer in
            var reader = GeoJSONLoader(bytes: buffer, file: file)
            var name: String?
            var radius: Double?
            var radiusProblem: PropertyProblem?
            var propertiesID: FenceID?
            do {
                try reader.readProperties(
                    name: &name, radius: &radius, radiusProblem: &radiusProblem, settings: &settings,
                    propertiesID: &propertiesID, pending: &pending)
                return true
            } catch {
                return false
            }
        }
        // The text was written above as JSON: a syntax error would be this loader's own fault.
        guard read else { throw fail(.cellPropertiesUnreadable) }
        if let pending { throw fail(pending) }
        return settings
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
            case separator:
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
            throw FenceLoadError(file: file, problem: .unterminatedQuote(line: line))
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
