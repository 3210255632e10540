/// What `fences import` keeps (docs/fences.md, "Importing fences").
public struct ImportSettings: Sendable {
    /// OSM `maxheight`: corridors and circles with `clearance`.
    public var clearances = false
    /// OSM `maxspeed`: corridors with `speed_limit_kmh`.
    public var speedLimits = false
    /// OSM `maxweight`, `maxwidth`, `maxlength`, `maxaxleload`, `hgv` and `maxspeed:hgv`: the
    /// restrictions a truck's profile is compared with.
    public var truckRestrictions = false
    /// OSM elements with any of these tags.
    public var selections: [TagSelection] = []
    /// Overrides every radius (ways' from their width or lanes, points' default).
    public var radius: Double?
    /// Only fences with a vertex inside.
    public var boundingBox: BoundingBox?

    /// A point's circle when neither `--radius` nor the source gives one.
    public static let defaultPointRadius = 10.0
    /// A GPX or KML line's corridor when neither `--radius` nor the source gives one.
    public static let defaultLineRadius = 10.0

    /// The fence properties written from text (KML's ExtendedData) as numbers or heights.
    public var propertyForms: FencePropertyForms

    public init(propertyForms: FencePropertyForms) {
        self.propertyForms = propertyForms
    }

    /// Whether any OSM selection was asked for.
    public var selectsOSM: Bool { clearances || speedLimits || truckRestrictions || !selections.isEmpty }
}

/// Which fence properties a source that holds only text (KML's ExtendedData) writes as numbers,
/// and which are measures as signs write them (`11'`, `7.5 t`) with their readers: the fence
/// loader's own keys and readers, given by the caller, since this module knows nothing of fences
/// (docs/architecture.md).
public struct FencePropertyForms: Sendable {
    /// A measure's reader (nil for text that is none) and the forms it reads, for the summary.
    public struct Measure: Sendable {
        public var read: @Sendable (String) -> Double?
        public var forms: String

        public init(read: @escaping @Sendable (String) -> Double?, forms: String) {
            self.read = read
            self.forms = forms
        }
    }

    /// Keys whose value is a number.
    public var numberKeys: Set<String>
    /// Keys whose value is a measure.
    public var measures: [String: Measure]
    /// Keys whose value is one of a few words (any case).
    public var choices: [String: Set<String>]

    /// A conditional limit's reader (`maxspeed:conditional`): the parts of a value it reads (a
    /// value at a time: `30 @ (Mo-Fr 07:00-19:00)`), as written, and the ones it does not, each
    /// with why (a condition of weather or of the vehicle: `60 @ wet`).
    public struct Conditional: Sendable {
        public var read: @Sendable (String) -> (read: [String], unreadable: [(text: String, reason: String)])

        public init(
            read: @escaping @Sendable (String) -> (read: [String], unreadable: [(text: String, reason: String)])
        ) {
            self.read = read
        }
    }

    /// Keys whose value is a conditional limit.
    public var conditionals: [String: Conditional]

    public init(
        numberKeys: Set<String>, measures: [String: Measure], choices: [String: Set<String>],
        conditionals: [String: Conditional] = [:]
    ) {
        self.numberKeys = numberKeys
        self.measures = measures
        self.choices = choices
        self.conditionals = conditionals
    }

    /// The parts of conditional limit `key` that are read, as one value (`30 @ (Mo-Fr
    /// 07:00-19:00); 20 @ Sa`), nil when none is; each part that is not read is kept aside and
    /// counted in `summary` with why, never written.
    func conditional(_ key: String, _ text: String, summary: inout ImportSummary) -> String? {
        guard let reader = conditionals[key] else { return text }
        let parts = reader.read(text)
        for part in parts.unreadable { summary.skip("\(key) kept aside: \(part.reason)", example: part.text) }
        return parts.read.isEmpty ? nil : parts.read.joined(separator: "; ")
    }

    /// Why `text` cannot be the value of fence property `key` (`is not a weight like ...`); nil
    /// when it can, or when the property is not checked here.
    func problem(_ key: String, _ text: String) -> String? {
        let trimmed = text.trimmingSpaces
        if let measure = measures[key] {
            if let number = Double(trimmed), number.isFinite, number > 0 { return nil }
            return measure.read(trimmed) == nil ? "is not \(measure.forms)" : nil
        }
        if let words = choices[key], !words.contains(trimmed.lowercased()) {
            return "is not one of " + words.sorted().joined(separator: ", ")
        }
        return nil
    }
}

/// `KEY`, or `KEY=VALUE[,VALUE...]`: elements whose tag `KEY` has any value, or one of those.
public struct TagSelection: Sendable, Equatable {
    public var key: String
    public var values: Set<String>?

    public init(key: String, values: Set<String>?) {
        self.key = key
        self.values = values
    }

    /// Nil when the text has no key or an empty value list.
    public init?(parsing text: String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = String(parts[0]).trimmingSpaces
        guard !key.isEmpty else { return nil }
        self.key = key
        if parts.count == 2 {
            let values = parts[1].split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
            guard !values.isEmpty else { return nil }
            self.values = Set(values)
        } else {
            values = nil
        }
    }

    func matches(_ value: String) -> Bool { values?.contains(value) ?? true }
}

/// `S,W,N,E` in degrees.
public struct BoundingBox: Sendable, Equatable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init?(parsing text: String) {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double(String($0).trimmingSpaces)
        }
        guard numbers.count == 4, let south = numbers[0], let west = numbers[1], let north = numbers[2],
            let east = numbers[3], -90 <= south, south <= north, north <= 90, -180 <= west, west <= 180,
            -180 <= east, east <= 180
        else { return nil }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The same four numbers read in osmium's and OpenStreetMap's order, west,south,east,north;
    /// nil when they are no box that way.
    public var inOsmiumOrder: BoundingBox? {
        BoundingBox(parsing: "\(west),\(south),\(east),\(north)")
    }

    /// `S,W,N,E` as `--bbox` takes it.
    public var text: String { "\(shortest(south)),\(shortest(west)),\(shortest(north)),\(shortest(east))" }

    private func shortest(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// West greater than east crosses the antimeridian.
    func contains(_ position: Position) -> Bool {
        guard position.lat >= south, position.lat <= north else { return false }
        return west <= east
            ? position.lon >= west && position.lon <= east : position.lon >= west || position.lon <= east
    }
}
