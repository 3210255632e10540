import JSONInput
import Platform
import Presentation

/// What is wrong with a fence file, or with one feature or CSV line of it. The loaders throw
/// these inside a `FenceLoadError`, which adds the place; the words are written once, in `text`.
public enum FenceProblem: Error, Sendable, Equatable {
    // The file as a whole.
    case isDirectory
    case unreadable(FileCallError)
    case malformedJSON(line: Int, column: Int, JSONProblem)
    case topLevelType(type: String)
    case noTopLevelType
    case noFeaturesArray
    // A CSV file.
    case emptyCSV
    /// `written` is the header line as written (at most 80 bytes); `oneColumn` when it has a single
    /// column, as a file separated by something else has.
    case csvHeader(line: Int, written: String, CSVHeaderProblem, oneColumn: Bool)
    case unterminatedQuote(line: Int)
    /// A problem of the circle on CSV line `line`.
    indirect case onLine(Int, FenceProblem)
    case fieldCount(Int, columns: [String])
    case cellMissing(column: String)
    case cellNotANumber(column: String, written: String)
    /// The properties a CSV line's columns were written into could not be read back.
    case cellPropertiesUnreadable
    // A feature.
    case idNotFinite
    case idNotAStringOrNumber(written: String)
    case featureType(type: String)
    case noGeometry
    case geometryWithoutType
    case pointCoordinates
    case noCoordinates(geometry: String)
    case nesting(geometry: String, arrays: Int)
    /// No radius for a circle or corridor; `bare` for a geometry standing alone (no properties).
    case noRadius(geometry: String, bare: Bool)
    case unsupportedGeometry(type: String)
    case coordinates(CoordinatesProblem)
    case property(PropertyProblem)
    case rule(RuleProblem)
    case shape(ShapeProblem)
    case duplicateID(String, firstFeature: Int)

    public var text: String {
        switch self {
        case .isDirectory: "is a directory, not a fence file"
        case .unreadable(let failure): "cannot read the file: \(failure.reason)"
        case .malformedJSON(let line, let column, let problem):
            "malformed JSON at line \(line), column \(column): \(problem)"
        case .topLevelType(let type):
            "top-level type is '\(type)', want 'FeatureCollection', 'Feature' "
                + "or a 'Polygon', 'MultiPolygon', 'Point', 'LineString' or 'MultiLineString' geometry"
        case .noTopLevelType: "not a GeoJSON FeatureCollection, Feature or geometry (no \"type\")"
        case .noFeaturesArray: "FeatureCollection has no \"features\" array"
        case .emptyCSV: "empty CSV: want a header such as 'id,name,lat,lon,radius_m'"
        case .csvHeader(let line, let written, let problem, let oneColumn):
            "line \(line): header '\(written)' \(problem.message); want at least lat,lon,radius"
                + (oneColumn ? " (it has one column: separate the columns with commas, or with semicolons)" : "")
        case .unterminatedQuote(let line): "line \(line): unterminated quoted field"
        case .onLine(let line, let problem): "line \(line): \(problem.text)"
        case .fieldCount(let count, let columns):
            "has \(count) field\(count == 1 ? "" : "s"); want \(columns.count) (\(columns.joined(separator: ",")))"
        case .cellMissing(let column): "\(column) is missing"
        case .cellNotANumber(let column, let written): "\(column) '\(written)' is not a number"
        case .cellPropertiesUnreadable: "its properties could not be read"
        case .idNotFinite: "id is not a finite number"
        case .idNotAStringOrNumber(let written): "id must be a string or a number, not \(written)"
        case .featureType(let type): "type is '\(type)', want 'Feature'"
        case .noGeometry: "feature has no geometry"
        case .geometryWithoutType: "geometry has no \"type\""
        case .pointCoordinates: "Point coordinates must be one position [lon, lat]"
        case .noCoordinates(let geometry): "\(geometry) has no coordinates"
        case .nesting(let geometry, let arrays): "\(geometry) coordinates must be nested \(arrays) arrays deep"
        case .noRadius(let geometry, bare: true):
            "a bare \(geometry) geometry needs a \"radius\" member in metres (or use a Feature with properties.radius)"
        case .noRadius(let geometry, bare: false):
            geometry == "Point"
                ? "a circle (Point) needs properties.radius in metres"
                : "a corridor (\(geometry)) needs properties.radius in metres"
        case .unsupportedGeometry(let type):
            "unsupported geometry type '\(type)' (fences are Point with properties.radius, Polygon, "
                + "MultiPolygon, or LineString or MultiLineString with properties.radius)"
        case .coordinates(let problem): problem.text
        case .property(let problem): problem.text
        case .rule(let problem): problem.description
        case .shape(let problem): problem.text
        case .duplicateID(let id, let first): "duplicate id \(id) (first used by feature \(first))"
        }
    }
}

/// What is wrong with a coordinates array, found while it is read.
public enum CoordinatesProblem: Sendable, Equatable {
    case nestedTooDeep
    /// `written` is the value as written, quoted and cut to 40 bytes.
    case notAnArray(written: String)
    case emptyArray
    case notANumber(written: String)
    case positionSize(Int)
    case mixedLevels

    public var text: String {
        switch self {
        case .nestedTooDeep: "coordinates nested too deep"
        case .notAnArray(let written): "coordinates must be arrays, found \(written)"
        case .emptyArray: "empty coordinate array"
        case .notANumber(let written): "coordinate \(written) is not a number"
        case .positionSize(let count):
            "a position has \(count) number\(count == 1 ? "" : "s"); want [lon, lat] or [lon, lat, altitude]"
        case .mixedLevels: "coordinates mix positions and arrays at one level"
        }
    }
}

/// What is wrong with a property of a feature (or a column of a CSV line). `written` is the value
/// as written, quoted and cut to 40 bytes.
public enum PropertyProblem: Sendable, Equatable {
    /// A radius in quotes that would be a number without them.
    case radiusIsText(written: String, number: String)
    case radiusNotANumber(written: String)
    case notAString(key: String, written: String)
    case notANonNegativeNumber(key: String, written: String, unit: String)
    case outOfRange(Limits.RangeProblem)
    case listItemNotAString(key: String, written: String)
    case notAListOfStrings(key: String, written: String)
    case unknownNotifyType(name: String)
    case unknownAlarmType(written: String, name: String)
    case sharedNodes(written: String)
    /// A height or weight in text none of the forms signs use; `text` as written.
    case notAHeight(key: String, text: String)
    case notAWeight(key: String, text: String)

    public var text: String {
        let eventTypes = FenceEventType.allCases.map(\.rawValue).joined(separator: ", ")
        return switch self {
        case .radiusIsText(let written, let number):
            "radius \(written) is text, not a number: write it without quotes (\"radius\": \(number))"
        case .radiusNotANumber(let written): "radius \(written) is not a number of metres"
        case .notAString(let key, let written): "\(key) \(written) is not a string"
        case .notANonNegativeNumber(let key, let written, let unit):
            "\(key) \(written) must be a non-negative number of \(unit)"
        case .outOfRange(let problem): problem.description
        case .listItemNotAString(let key, let written): "\(key): \(written) is not a string"
        case .notAListOfStrings(let key, let written): "\(key) \(written) must be a list of strings"
        case .unknownNotifyType(let name): "notify: unknown event type '\(name)' (known: \(eventTypes))"
        case .unknownAlarmType(let written, let name):
            "alarm \(written): unknown event type '\(name)' (write true, or a list of: \(eventTypes))"
        case .sharedNodes(let written):
            "shared_nodes \(written) must be a list of [vertex index, OSM node id] pairs of whole numbers, "
                + "the vertex indices ascending"
        case .notAHeight(let key, let text): "\(key) '\(HumanText.printable(text))' is not \(Height.forms)"
        case .notAWeight(let key, let text): "\(key) '\(HumanText.printable(text))' is not \(Weight.forms)"
        }
    }
}

/// What is wrong with a fence's shape once its feature is read whole.
public enum ShapeProblem: Sendable, Equatable {
    case radiusNotPositive(Double)
    case radiusTooLarge(Double)
    case noRings
    case partWithoutRings(Int)
    case ringTooShort(ShapePart, positions: Int)
    case ringNotClosed(ShapePart, first: GeoPoint, last: GeoPoint)
    case tooManyEdges(Int)
    case noLines
    case lineTooShort(ShapePart, positions: Int)
    case segmentTooLong(ShapePart, segment: Int, metres: Double)
    case corridorRadiusNotPositive(Double)
    case corridorRadiusTooLarge(Double)
    case longitude(ShapePart, position: Int?, Double)
    case latitude(ShapePart, position: Int?, Double)

    public var text: String {
        func positions(_ count: Int) -> String { "\(count) position\(count == 1 ? "" : "s")" }
        func place(_ part: ShapePart, _ position: Int?) -> String {
            part.text + (position.map { " position \($0)" } ?? "")
        }
        let halfTheEarth = "\(formatNumber(Limits.maxMetres)) metres (half the Earth's circumference)"
        return switch self {
        case .radiusNotPositive(let radius): "radius \(formatNumber(radius)) must be a positive number of metres"
        case .radiusTooLarge(let radius): "radius \(formatNumber(radius)) must be at most \(halfTheEarth)"
        case .noRings: "polygon has no rings"
        case .partWithoutRings(let part): "polygon part \(part) has no rings"
        case .ringTooShort(let part, let count): "\(part.text) has \(positions(count)); a closed ring needs at least 4"
        case .ringNotClosed(let part, let first, let last):
            "\(part.text) is not closed: first position [\(formatNumber(first.lon)), \(formatNumber(first.lat))] "
                + "differs from last [\(formatNumber(last.lon)), \(formatNumber(last.lat))]"
        case .tooManyEdges(let edges):
            "too many polygon edges in one fence file (this polygon has \(edges); "
                + "the file may hold about \(PolygonStore.maxEntries / 5) in all)"
        case .noLines: "a corridor needs at least one line"
        case .lineTooShort(let part, let count): "\(part.text) has \(positions(count)); a line needs at least 2"
        case .segmentTooLong(let part, let segment, let metres):
            "\(part.text) segment \(segment) is \(formatNumber((metres / 1000).rounded())) km long; a corridor's "
                + "segments must be shorter than \(formatNumber(FenceSetBuilder.longestSegment / 1000)) km "
                + "(add vertices: between near-antipodal points the great circle is ambiguous)"
        case .corridorRadiusNotPositive(let radius):
            "corridor radius \(formatNumber(radius)) must be a positive number of metres"
        case .corridorRadiusTooLarge(let radius):
            "corridor radius \(formatNumber(radius)) must be at most \(halfTheEarth)"
        case .longitude(let part, let position, let lon):
            "\(place(part, position)): longitude \(formatNumber(lon)) is out of range [-180, 180]"
        case .latitude(let part, let position, let lat):
            "\(place(part, position)): latitude \(formatNumber(lat)) is out of range [-90, 90]"
        }
    }
}

/// A piece of a fence's shape, as a problem names it.
public enum ShapePart: Sendable, Equatable {
    case circleCentre
    /// Ring `ring` of polygon part `part` (nil in a polygon of one part).
    case ring(part: Int?, ring: Int)
    /// Line `line` of a corridor (nil in a corridor of one line).
    case line(Int?)

    public var text: String {
        switch self {
        case .circleCentre: "circle centre"
        case .ring(let part?, let ring): "part \(part) ring \(ring)"
        case .ring(nil, let ring): "ring \(ring)"
        case .line(let line?): "line \(line)"
        case .line(nil): "line"
        }
    }
}
