/// What each column of a CSV fence file holds, read from its header as spreadsheets write it:
/// names in any case, with spaces around them, in any order, with the usual spellings of latitude,
/// longitude and radius. Every other named column is a property of each fence.
public struct CSVColumns {
    /// The role of a column the loader reads itself.
    public enum Role: CaseIterable, Sendable {
        case id, name, lat, lon, radius

        /// The header names taken for this role, lowercased.
        var names: Set<String> {
            switch self {
            case .id: ["id"]
            case .name: ["name"]
            case .lat: ["lat", "latitude"]
            case .lon: ["lon", "lng", "long", "longitude"]
            case .radius: ["radius", "radius_m", "r"]
            }
        }

        /// How an error names the role: its spellings.
        var spellings: String {
            switch self {
            case .id: "id"
            case .name: "name"
            case .lat: "lat or latitude"
            case .lon: "lon, lng, long or longitude"
            case .radius: "radius, radius_m or r"
            }
        }
    }

    /// A column kept as a property: its index and the property's name.
    struct Property {
        let index: Int
        let key: String
    }

    let id: Int?
    let name: Int?
    let lat: Int
    let lon: Int
    let radius: Int
    let properties: [Property]
    /// How many fields a line has.
    let count: Int
    /// The header as written, trimmed, for messages: `radius_m is missing`.
    let names: [String]

    /// The columns of `header` (its fields as split), or a problem naming what is missing or twice.
    static func read(_ header: [String]) -> Result<CSVColumns, CSVHeaderProblem> {
        var found: [Role: Int] = [:]
        var properties: [Property] = []
        var keys: Set<String> = []
        for (index, field) in header.enumerated() {
            let text = field.trimmingSpaces
            // An unnamed column (a spreadsheet's trailing comma) holds nothing to keep.
            if text.isEmpty { continue }
            let lowered = text.lowercased()
            if let role = Role.allCases.first(where: { $0.names.contains(lowered) }) {
                if found[role] != nil { return .failure(.twice(role)) }
                found[role] = index
                continue
            }
            // Properties the loader reads are matched in any case too; others keep their spelling.
            let key = FenceProperties.knownKeys.contains(lowered) ? lowered : text
            if !keys.insert(key).inserted { return .failure(.repeated(key: key)) }
            properties.append(Property(index: index, key: key))
        }
        guard let lat = found[.lat] else { return .failure(.missing(.lat)) }
        guard let lon = found[.lon] else { return .failure(.missing(.lon)) }
        guard let radius = found[.radius] else { return .failure(.missing(.radius)) }
        return .success(
            CSVColumns(
                id: found[.id], name: found[.name], lat: lat, lon: lon, radius: radius, properties: properties,
                count: header.count, names: header.map(\.trimmingSpaces)))
    }
}

/// A CSV header the loader cannot use.
public enum CSVHeaderProblem: Error, Sendable, Equatable {
    case missing(CSVColumns.Role)
    case twice(CSVColumns.Role)
    case repeated(key: String)

    public var message: String {
        switch self {
        case .missing(let role): "has no \(role.spellings) column"
        case .twice(let role): "has two \(role.spellings) columns"
        case .repeated(let key): "has two '\(key)' columns"
        }
    }
}

/// A new circle's line for a CSV fence file, in that file's own column order, so that `fences
/// add` writes into a spreadsheet's layout what the loader reads back.
public enum CSVFenceLine {
    /// The fields (already formatted, not yet quoted) for the columns of `header`, the file's
    /// header line: empty for the property columns; nil when the header does not name latitude,
    /// longitude and radius.
    public static func fields(
        header: String, id: String, name: String, lat: String, lon: String, radius: String
    ) -> [String]? {
        var names: [String] = []
        let bytes = Array(header.utf8)
        let split: Int? = bytes.withUnsafeBufferPointer { buffer in
            try? CSVLoader(bytes: buffer, file: "").splitLine(from: 0, into: &names, line: 1)
        }
        guard split != nil, case .success(let columns) = CSVColumns.read(names) else { return nil }
        var fields = [String](repeating: "", count: columns.count)
        if let index = columns.id { fields[index] = id }
        if let index = columns.name { fields[index] = name }
        fields[columns.lat] = lat
        fields[columns.lon] = lon
        fields[columns.radius] = radius
        return fields
    }
}
