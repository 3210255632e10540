import Fences
import Foundation
import JSONInput
import LiveLoop

/// The vertices of a GeoJSON (RFC 7946) LineString: a bare geometry, a Feature, or the first
/// feature of a FeatureCollection with a LineString or MultiLineString. Positions are [lon, lat, alt?].
enum GeoJSONRoute {
    static func parse(_ data: Data, file: String) throws(InputError) -> [RoutePoint] {
        let result = data.withUnsafeBytes { raw -> Result<[RoutePoint], InputError> in
            var reader = GeoJSONRouteReader(scanner: JSONScanner(raw.bindMemory(to: UInt8.self)), file: file)
            do throws(InputError) {
                return .success(try reader.points())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

/// Reads a route with the fence loader's `JSONScanner`. The members of an object come in any order
/// (the "coordinates" may precede the "type"), so the whole text is checked first, then an object is
/// read for its "type" and where its other members start, and those are read after, by the type.
private struct GeoJSONRouteReader {
    var scanner: JSONScanner
    let file: String

    /// The members of one GeoJSON object that a route needs: its "type", and the offsets where
    /// its "coordinates", "geometry" and "features" start.
    struct Members {
        var type: String?
        var coordinates: Int?
        var geometry: Int?
        var features: Int?
    }

    mutating func points() throws(InputError) -> [RoutePoint] {
        let start = scanner.pos
        try scan { (scanner) throws(JSONSyntaxError) in
            try scanner.skipValue()
            if scanner.peek() != 0 { throw scanner.fail(.dataAfter(.topLevelValue)) }
        }
        guard let root = try members(at: start) else {
            throw InputError.route(path: file, at: nil, .notAnObject)
        }
        guard let lines = try lines(of: root, place: ""), !lines.isEmpty else {
            throw InputError.route(path: file, at: nil, .noLine)
        }
        return lines.flatMap { $0 }
    }

    /// The lines of an object, nil when it has none: a LineString's one, a MultiLineString's, a
    /// Feature's geometry's, or those of a FeatureCollection's first feature that has a point.
    /// `place` names the feature in messages ("feature 2, "), empty outside a collection.
    mutating func lines(of object: Members, place: String) throws(InputError) -> [[RoutePoint]]? {
        switch object.type {
        case "LineString":
            guard let coordinates = object.coordinates else { return nil }
            return [try line(at: coordinates, place: place + "LineString 0")]
        case "MultiLineString":
            guard let coordinates = object.coordinates else { return nil }
            guard let starts = try elements(at: coordinates) else {
                throw problem(at: coordinates, place + "MultiLineString", .shape(.linesArray))
            }
            var lines: [[RoutePoint]] = []
            for (index, start) in starts.enumerated() {
                lines.append(try line(at: start, place: place + "LineString \(index)"))
            }
            return lines
        case "Feature":
            guard let geometry = object.geometry, let members = try members(at: geometry) else { return nil }
            return try lines(of: members, place: place)
        case "FeatureCollection":
            guard let features = object.features else { return nil }
            guard let starts = try elements(at: features) else {
                throw problem(at: features, "FeatureCollection", .shape(.featuresArray))
            }
            for (index, start) in starts.enumerated() {
                guard let feature = try members(at: start) else {
                    throw problem(at: start, "feature \(index)", .shape(.featureObject))
                }
                if let lines = try lines(of: feature, place: "feature \(index), "),
                    lines.contains(where: { !$0.isEmpty })
                {
                    return lines
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// The positions of one line, each checked: [lon, lat] or [lon, lat, alt], in range.
    mutating func line(at offset: Int, place: String) throws(InputError) -> [RoutePoint] {
        guard let starts = try elements(at: offset) else {
            throw problem(at: offset, place, .shape(.positionsArray))
        }
        var points: [RoutePoint] = []
        points.reserveCapacity(starts.count)
        for (index, start) in starts.enumerated() {
            let here = place + ", position \(index)"
            guard let parts = try elements(at: start), parts.count >= 2,
                let longitude = try number(at: parts[0]), let latitude = try number(at: parts[1])
            else { throw problem(at: start, here, .shape(.position)) }
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw problem(at: start, here, .positionOutOfRange(longitude: longitude, latitude: latitude))
            }
            var altitude: Double?
            if parts.count > 2 {
                altitude = try number(at: parts[2])
                // a null altitude is none; any other value that is not a number is a mistake
                if altitude == nil && !isNull(at: parts[2]) { throw problem(at: start, here, .shape(.position)) }
            }
            points.append(RoutePoint(latitude: latitude, longitude: longitude, altitude: altitude))
        }
        return points
    }

    /// The object at `offset`: its "type" and where its other members start; nil when the value
    /// there is not an object.
    mutating func members(at offset: Int) throws(InputError) -> Members? {
        scanner.pos = offset
        guard scanner.peek() == 0x7B else { return nil }
        var members = Members()
        try scan { (scanner) throws(JSONSyntaxError) in
            try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                scanner.skipWhitespace()
                let start = scanner.pos
                switch key {
                case "type" where scanner.peek() == 0x22:
                    members.type = try scanner.string(scanner.stringSpan())
                    return
                case "coordinates": members.coordinates = start
                case "geometry": members.geometry = start
                case "features": members.features = start
                default: break
                }
                try scanner.skipValue()
            }
        }
        return members
    }

    /// Where each element of the array at `offset` starts; nil when the value there is not an array.
    mutating func elements(at offset: Int) throws(InputError) -> [Int]? {
        scanner.pos = offset
        guard scanner.consume(0x5B) else { return nil }
        var starts: [Int] = []
        try scan { (scanner) throws(JSONSyntaxError) in
            if scanner.consume(0x5D) { return }
            repeat {
                scanner.skipWhitespace()
                starts.append(scanner.pos)
                try scanner.skipValue()
            } while try scanner.next(close: 0x5D)
        }
        return starts
    }

    /// The number at `offset`; nil when the value there is not a number.
    mutating func number(at offset: Int) throws(InputError) -> Double? {
        scanner.pos = offset
        guard scanner.atNumber() else { return nil }
        return try scan { (scanner) throws(JSONSyntaxError) in try scanner.number() }
    }

    mutating func isNull(at offset: Int) -> Bool {
        scanner.pos = offset
        return scanner.consumeNull()
    }

    /// Runs scanner steps; a syntax error becomes the message that names the file, line and column.
    mutating func scan<T>(_ steps: (inout JSONScanner) throws(JSONSyntaxError) -> T) throws(InputError) -> T {
        do {
            return try steps(&scanner)
        } catch {
            let (line, column) = scanner.lineColumn(error.offset)
            throw InputError.route(path: file, at: .jsonSyntax(line: line, column: column), .jsonSyntax(error))
        }
    }

    /// A route that is JSON but not the GeoJSON a route wants: what, in which part, and where.
    func problem(at offset: Int, _ place: String, _ what: RouteProblem) -> InputError {
        let (line, column) = scanner.lineColumn(offset)
        return InputError.route(path: file, at: .member(place, line: line, column: column), what)
    }
}
