import JSONInput
import NMEA
import Platform

/// Streams a GeoJSON FeatureCollection (RFC 7946) into a `FenceSetBuilder` without building a
/// document tree: coordinates go straight into the polygon store's vertex buffer (their final place
/// for a huge polygon: see `PolygonStore`), properties are kept as the raw JSON text of the object,
/// and only the keys that matter are decoded.
struct GeoJSONLoader {
    var scanner: JSONScanner
    var builder: FenceSetBuilder
    let file: String
    /// ends[1]: ring ends (in positions); ends[2]: part ends (in rings); ends[3]: multipolygon ends.
    var ends: [[Int]] = [[], [], [], [], []]
    var featureIndex = 0
    /// The bytes are a read-only file mapping whose parsed pages may be dropped.
    var releasable = false
    /// Zones and opening hours parsed once per file, shared by the fences that name them.
    let ruleCache = FenceRuleCache()
    /// A FeatureCollection of at least this many bytes has the second half of its features read
    /// by a second thread (`SecondHalfReader`); nil: 32 MB when the process may use two
    /// processors (asked only of a file that big: the CSV reader makes a loader for every row).
    var readsInHalvesFrom: Int?
    /// What became of the second half's reading; `.started` after the features array only when
    /// the loader left it without waiting for it, which must never happen: the bytes it reads may
    /// be gone.
    private(set) var secondHalf = SecondHalfOutcome.none
    /// Where this loader's part of the file starts: 0, or the first feature a `SecondHalfReader`
    /// reads. Such a loader stops at a polygon and at a feature without an id (`SecondHalfStop`).
    let firstByte: Int

    init(bytes: UnsafeBufferPointer<UInt8>, file: String, from firstByte: Int = 0) {
        scanner = JSONScanner(bytes)
        scanner.pos = firstByte
        self.file = file
        self.firstByte = firstByte
        let size = bytes.count - firstByte
        // a circle feature is about 110 bytes: reserve the id table once
        builder = FenceSetBuilder(file: file, expectedCount: size / 128)
        // A coordinate takes at least 8 bytes of text in practice (`-2.59827,`): room for all of
        // them, so the vertex buffer never moves (address space only, until written).
        builder.polygons.reserveVertices(size / 8)
        // a corridor's vertex takes at least 12 bytes in a file whose size calls for it (`[9.9,4.4],`)
        if size >= 1 << 23 { builder.corridors.reserveVertices(size / 12) }
    }

    /// Malformed JSON, named by line and column, and by feature when inside one.
    func syntaxError(_ e: JSONSyntaxError, inFeature: Bool, id: FenceID?) -> FenceLoadError {
        let (line, column) = scanner.lineColumn(e.offset)
        return FenceLoadError(
            file: file, featureIndex: inFeature ? featureIndex : nil, featureID: id?.json,
            problem: .malformedJSON(line: line, column: column, e.problem))
    }

    /// A problem with the current feature, found once it has been read whole: named by its index,
    /// and by its id when it has one.
    func featureError(_ problem: FenceProblem, id: FenceID?) -> FenceLoadError {
        FenceLoadError(
            file: file, featureIndex: featureIndex, featureID: id?.json,
            problem: problem)
    }

    mutating func load() throws(FenceLoadError) -> FenceSetBuilder {
        do {
            // RFC 7946 allows a fence file to be one FeatureCollection, one Feature, or one bare
            // geometry; the top-level "type" says which (docs/fences.md).
            switch topLevelType() {
            case "Feature":
                try feature(bare: false)
                featureIndex += 1
            case "Polygon", "MultiPolygon", "Point", "LineString", "MultiLineString":
                try feature(bare: true)
                featureIndex += 1
            default:
                try featureCollection()
            }
            if scanner.peek() != 0 {
                throw JSONSyntaxError(offset: scanner.pos, problem: .dataAfter(.object))
            }
        } catch let e as JSONSyntaxError {
            throw syntaxError(e, inFeature: false, id: nil)
        } catch let e as FenceLoadError {
            throw e
        } catch {
            preconditionFailure("the GeoJSON reader throws only syntax errors and fence problems: \(error)")
        }
        return builder
    }

    /// The top-level object's "type", found without parsing anything else (other members are
    /// skipped); the scanner is put back where it was. Nil when there is none or the text is not
    /// JSON: the FeatureCollection path then reports the problem with its position.
    mutating func topLevelType() -> String? {
        scanner.skipWhitespace()
        let start = scanner.pos
        defer { scanner.pos = start }
        do {
            try scanner.expect(0x7B, "'{'")
            if scanner.consume(0x7D) { return nil }
            repeat {
                let key = try scanner.stringSpan()
                try scanner.expect(0x3A, "':'")
                if scanner.spanEquals(key, "type") {
                    guard scanner.peek() == 0x22 else { return nil }
                    return try scanner.string(scanner.stringSpan())
                }
                try scanner.skipValue()
            } while try scanner.next(close: 0x7D)
        } catch {
            return nil
        }
        return nil
    }

    mutating func featureCollection() throws {
        try scanner.expect(0x7B, "a GeoJSON object '{'")
        var type: String?
        var sawFeatures = false
        if !scanner.consume(0x7D) {
            repeat {
                let key = try scanner.stringSpan()
                try scanner.expect(0x3A, "':'")
                if scanner.spanEquals(key, "type") {
                    type = try scanner.string(scanner.stringSpan())
                    if type != "FeatureCollection" {
                        throw FenceLoadError(file: file, problem: .topLevelType(type: type!))
                    }
                } else if scanner.spanEquals(key, "features") {
                    sawFeatures = true
                    try features()
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.next(close: 0x7D)
        }
        if type == nil {
            throw FenceLoadError(file: file, problem: .noTopLevelType)
        }
        if !sawFeatures {
            throw FenceLoadError(file: file, problem: .noFeaturesArray)
        }
    }

    mutating func features() throws {
        try scanner.expect(0x5B, "the features array '['")
        if scanner.consume(0x5D) { return }
        let size = scanner.end - scanner.pos
        let inHalves = readsInHalvesFrom.map { size >= $0 } ?? (size >= 32 << 20 && usableProcessorCount() >= 2)
        var reader =
            inHalves
            ? SecondHalfReader.start(scanner: scanner, file: file, releasable: releasable) : nil
        if reader != nil { secondHalf = .started }
        defer {
            if let reader {
                reader.finish(stop: true)
                secondHalf = .dropped
            }
        }
        var released = 0
        repeat {
            if let half = reader, scanner.pos >= half.start {
                // Taken only when this reading arrived at a feature just where the other began:
                // then what it read are the features that follow, whatever its guess rested on.
                // Waited for either way: the bytes it reads must outlive it.
                reader = nil
                let read = half.finish(stop: scanner.pos != half.start)
                if let read, builder.append(fencesOf: read.builder) {
                    featureIndex += read.count
                    scanner.pos = read.resume
                    secondHalf = .taken
                    continue
                }
                secondHalf = .dropped
            }
            try feature()
            featureIndex += 1
            if featureIndex == 1024 {
                // the file's size over its first features' (plus a margin) is a fair count
                let bytesPerFeature = Double(scanner.pos - firstByte) / Double(featureIndex)
                builder.reserveIDs(Int(Double(scanner.end - firstByte) / bytesPerFeature * 1.1))
            }
            if scanner.pos - released > 8 << 20 { released = releasePages(from: released, upTo: scanner.pos) }
        } while try scanner.next(close: 0x5D)
    }

    /// One Feature; with `bare`, the object is a geometry standing alone (its "radius" member,
    /// foreign to RFC 7946, gives a Point its radius).
    mutating func feature(bare: Bool = false) throws {
        var id: FenceID?
        do {
            try scanner.expect(0x7B, "a Feature object '{'")
            var geometryType: String?
            var geometryMissing = true
            var pending: FenceProblem?  // a problem found mid-feature, reported once the id is known
            var name: String?
            var radius: Double?
            var radiusProblem: PropertyProblem?
            var settings = FenceSettings()
            var properties = (start: 0, end: 0)
            var propertiesID: FenceID?  // QGIS writes the id here
            var typeProblem: FenceProblem?
            var depth = 0
            builder.polygons.discardStaged()
            for k in ends.indices { ends[k].removeAll(keepingCapacity: true) }
            if !scanner.consume(0x7D) {
                repeat {
                    let key = try scanner.stringSpan()
                    try scanner.expect(0x3A, "':'")
                    if bare {
                        geometryMissing = false
                        if scanner.spanEquals(key, "type") {
                            geometryType = try scanner.string(scanner.stringSpan())
                        } else if scanner.spanEquals(key, "coordinates") {
                            if let problem = try coordinates(depth: &depth) {
                                pending = pending ?? .coordinates(problem)
                            }
                        } else if scanner.spanEquals(key, "radius") {
                            if scanner.atNumber() {
                                radius = try scanner.number()
                            } else {
                                let start = scanner.pos
                                try scanner.skipValue()
                                radiusProblem = radiusNotANumber(start)
                            }
                        } else {
                            try scanner.skipValue()
                        }
                    } else if scanner.spanEquals(key, "id") {
                        id = try readID()
                    } else if scanner.spanEquals(key, "geometry") {
                        if scanner.consumeNull() { continue }
                        geometryMissing = false
                        try scanner.expect(0x7B, "a geometry object '{'")
                        if !scanner.consume(0x7D) {
                            repeat {
                                let gkey = try scanner.stringSpan()
                                try scanner.expect(0x3A, "':'")
                                if scanner.spanEquals(gkey, "type") {
                                    geometryType = try scanner.string(scanner.stringSpan())
                                } else if scanner.spanEquals(gkey, "coordinates") {
                                    if let problem = try coordinates(depth: &depth) {
                                        pending = pending ?? .coordinates(problem)
                                    }
                                } else {
                                    try scanner.skipValue()
                                }
                            } while try scanner.next(close: 0x7D)
                        }
                    } else if scanner.spanEquals(key, "properties") {
                        scanner.skipWhitespace()
                        let start = scanner.pos
                        if !scanner.consumeNull() {
                            try readProperties(
                                name: &name, radius: &radius, radiusProblem: &radiusProblem,
                                settings: &settings, propertiesID: &propertiesID, pending: &pending)
                        }
                        properties = (start, scanner.pos)
                    } else if scanner.spanEquals(key, "type") {
                        let t = try scanner.string(scanner.stringSpan())
                        if t != "Feature" { typeProblem = .featureType(type: t) }
                    } else {
                        try scanner.skipValue()
                    }
                } while try scanner.next(close: 0x7D)
            }
            id = id ?? propertiesID
            if let typeProblem { throw featureError(typeProblem, id: id) }
            if firstByte > 0 && (id == nil || geometryType == "Polygon" || geometryType == "MultiPolygon") {
                throw SecondHalfStop()
            }
            if let pending { throw featureError(pending, id: id) }
            let props = UnsafeBufferPointer(
                start: scanner.base + properties.start, count: properties.end - properties.start)
            let propsOrNull: UnsafeBufferPointer<UInt8> = props.isEmpty ? nullText : props
            guard !geometryMissing, let geometryType else {
                throw featureError(geometryMissing ? .noGeometry : .geometryWithoutType, id: id)
            }
            switch geometryType {
            case "Point":
                let coords = builder.polygons.staged
                guard depth == 0, coords.count == 2 else {
                    throw featureError(.pointCoordinates, id: id)
                }
                if let radiusProblem { throw featureError(.property(radiusProblem), id: id) }
                guard let radius else {
                    throw featureError(.noRadius(geometry: geometryType, bare: bare), id: id)
                }
                try builder.addCircle(
                    id: id, name: name, settings: settings, properties: propsOrNull,
                    CircleShape(lat: coords[1], lon: coords[0], radius: radius))
                builder.polygons.discardStaged()
            case "Polygon", "MultiPolygon":
                let want = geometryType == "Polygon" ? 2 : 3
                if builder.polygons.stagedCount == 0 && depth <= want {
                    throw featureError(.noCoordinates(geometry: geometryType), id: id)
                }
                guard depth == want else {
                    throw featureError(.nesting(geometry: geometryType, arrays: want + 1), id: id)
                }
                if geometryType == "Polygon" { ends[2] = [ends[1].count] }
                try builder.addStagedPolygon(
                    id: id, name: name, settings: settings, properties: propsOrNull,
                    ringEnds: ends[1][...], partEnds: ends[2][...])
            case "LineString", "MultiLineString":
                let want = geometryType == "LineString" ? 1 : 2
                if builder.polygons.stagedCount == 0 && depth <= want {
                    throw featureError(.noCoordinates(geometry: geometryType), id: id)
                }
                guard depth == want else {
                    throw featureError(.nesting(geometry: geometryType, arrays: want + 1), id: id)
                }
                if let radiusProblem { throw featureError(.property(radiusProblem), id: id) }
                guard let radius else {
                    throw featureError(.noRadius(geometry: geometryType, bare: bare), id: id)
                }
                try builder.addStagedCorridor(
                    id: id, name: name, settings: settings, properties: propsOrNull, lineEnds: ends[1][...],
                    radius: radius)
                builder.polygons.discardStaged()
            default:
                throw featureError(.unsupportedGeometry(type: geometryType), id: id)
            }
        } catch let e as JSONSyntaxError {
            throw syntaxError(e, inFeature: true, id: id)
        }
    }

    mutating func readID() throws -> FenceID? {
        scanner.skipWhitespace()
        if scanner.consumeNull() { return nil }
        if scanner.atNumber() {
            let start = scanner.pos
            let v = try scanner.number()
            guard v.isFinite else {
                throw FenceLoadError(file: file, featureIndex: featureIndex, problem: .idNotFinite)
            }
            return .number(
                String(
                    decoding: UnsafeBufferPointer(start: scanner.base + start, count: scanner.pos - start),
                    as: UTF8.self))
        }
        if scanner.peek() == 0x22 { return .string(try scanner.string(scanner.stringSpan())) }
        let start = scanner.pos
        try scanner.skipValue()
        let text = String(
            decoding: UnsafeBufferPointer(start: scanner.base + start, count: scanner.pos - start), as: UTF8.self)
        throw FenceLoadError(
            file: file, featureIndex: featureIndex, problem: .idNotAStringOrNumber(written: String(text.prefix(40))))
    }

    /// Parses a coordinates value into the staged coordinates and `ends`; returns its nesting depth
    /// (0 for a position) through `depth`, and a problem (non-numeric coordinate, ragged nesting) if
    /// any.
    mutating func coordinates(depth: inout Int) throws -> CoordinatesProblem? {
        // a repeated "coordinates" member replaces the earlier one
        builder.polygons.discardStaged()
        for k in ends.indices { ends[k].removeAll(keepingCapacity: true) }
        var problem: CoordinatesProblem?
        depth = try array(level: 0, problem: &problem)
        return problem
    }

    /// One array of the coordinates tree; returns its depth (0 = a position).
    mutating func array(level: Int, problem: inout CoordinatesProblem?) throws -> Int {
        if level > 4 {
            try scanner.skipValue()
            problem = problem ?? .nestedTooDeep
            return 9
        }
        guard scanner.peek() == 0x5B else {
            let start = scanner.pos
            try scanner.skipValue()
            problem = problem ?? .notAnArray(written: snippet(start))
            return 0
        }
        scanner.pos += 1
        if scanner.consume(0x5D) {
            problem = problem ?? .emptyArray
            return 1
        }
        let c = scanner.peek()
        if c != 0x5B {
            // a position: numbers [lon, lat] or [lon, lat, alt]
            var n = 0
            repeat {
                if scanner.atNumber() {
                    let v = try scanner.number()
                    if n < 2 { builder.polygons.stage(v) }
                } else {
                    let start = scanner.pos
                    try scanner.skipValue()
                    problem = problem ?? .notANumber(written: snippet(start))
                    if n < 2 { builder.polygons.stage(.nan) }
                }
                n += 1
            } while try scanner.next(close: 0x5D)
            if n < 2 || n > 3 {
                problem = problem ?? .positionSize(n)
                if n < 2 { builder.polygons.stage(.nan) }
            }
            return 0
        }
        var childDepth = -1
        repeat {
            let d = compactPosition() ? 0 : try array(level: level + 1, problem: &problem)
            if childDepth < 0 {
                childDepth = d
            } else if d != childDepth {
                problem = problem ?? .mixedLevels
            }
        } while try scanner.next(close: 0x5D)
        let depth = childDepth + 1
        if depth >= 1 && depth < ends.count {
            ends[depth].append(depth == 1 ? builder.polygons.stagedCount / 2 : ends[depth - 1].count)
        }
        return depth
    }

    /// A position written `[lon,lat]` with no blanks and short numbers (`DecimalText.short`), as
    /// most big files are, read in one step: staged, and true. False, with nothing consumed, for
    /// anything else, which `array` reads in full.
    @inline(__always)
    mutating func compactPosition() -> Bool {
        let p = scanner.pos
        guard scanner.end - p >= 40 else { return false }
        let b = scanner.base
        guard b[p] == 0x5B, let (lon, comma) = DecimalText.short(b, p + 1), b[comma] == 0x2C,
            let (lat, close) = DecimalText.short(b, comma + 1), b[close] == 0x5D
        else { return false }
        builder.polygons.stage(lon)
        builder.polygons.stage(lat)
        scanner.pos = close + 1
        return true
    }

    /// Drops the file pages parsed since the release mark `from`, so a file of hundreds of MB is
    /// never all resident. Returns the new release mark (page aligned). Only effective for
    /// memory-mapped files.
    func releasePages(from: Int, upTo pos: Int) -> Int {
        let page = 4096
        let base = Int(bitPattern: scanner.base)
        guard releasable, base % page == 0 else { return pos }
        let start = (from + page - 1) / page * page
        let end = (pos / page) * page
        if end > start { dropMappedPages(scanner.base + start, count: end - start) }
        return max(end, start)
    }

    /// A radius that is not a number; a quoted number (`"75"`) is named as text with the fix.
    func radiusNotANumber(_ start: Int) -> PropertyProblem {
        let text = String(
            decoding: UnsafeBufferPointer(start: scanner.base + start, count: min(scanner.pos - start, 40)),
            as: UTF8.self)
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count > 2, Double(text.dropFirst().dropLast()) != nil {
            return .radiusIsText(written: text, number: String(text.dropFirst().dropLast()))
        }
        return .radiusNotANumber(written: text)
    }

    func snippet(_ start: Int) -> String {
        let text = String(
            decoding: UnsafeBufferPointer(start: scanner.base + start, count: min(scanner.pos - start, 40)),
            as: UTF8.self)
        return "'\(text)'"
    }

    mutating func readProperties(
        name: inout String?, radius: inout Double?, radiusProblem: inout PropertyProblem?,
        settings: inout FenceSettings, propertiesID: inout FenceID?, pending: inout FenceProblem?
    ) throws {
        try scanner.expect(0x7B, "a properties object '{' or null")
        if scanner.consume(0x7D) { return }
        var rules = FenceRuleText(cache: ruleCache)
        defer { settings.rules = rules.resolved(pending: &pending) }
        repeat {
            let key = try scanner.stringSpan()
            try scanner.expect(0x3A, "':'")
            let start = scanner.pos
            if scanner.spanEquals(key, "radius") {
                if scanner.atNumber() {
                    radius = try scanner.number()
                } else {
                    try scanner.skipValue()
                    radiusProblem = radiusNotANumber(start)
                }
            } else if scanner.spanEquals(key, "id") {
                // A string or a number is the fence id when the feature has no `id` of its own;
                // anything else is an ordinary property.
                if scanner.atNumber() || scanner.peek() == 0x22 {
                    propertiesID = try readID()
                } else {
                    try scanner.skipValue()
                }
            } else if scanner.spanEquals(key, "name") {
                if scanner.peek() == 0x22 {
                    name = try scanner.string(scanner.stringSpan())
                } else if !scanner.consumeNull() {
                    try scanner.skipValue()
                    pending = pending ?? .property(.notAString(key: "name", written: snippet(start)))
                }
            } else if scanner.spanEquals(key, "dwell") {
                settings.dwell = try setting("dwell", unit: "seconds", max: Limits.maxSeconds, pending: &pending)
            } else if scanner.spanEquals(key, "hysteresis") {
                settings.hysteresis = try setting(
                    "hysteresis", unit: "metres", max: Limits.maxMetres, pending: &pending)
            } else if scanner.spanEquals(key, "approach") {
                settings.approach = try setting("approach", unit: "metres", max: Limits.maxMetres, pending: &pending)
            } else if scanner.spanEquals(key, "notify") {
                var list: [FenceEventType] = []
                for s in try stringList("notify", pending: &pending) {
                    if let t = FenceEventType(rawValue: s) {
                        list.append(t)
                    } else {
                        pending = pending ?? .property(.unknownNotifyType(name: s))
                    }
                }
                settings.notify = list
            } else if scanner.spanEquals(key, "tags") {
                settings.tags = try stringList("tags", pending: &pending)
            } else if scanner.spanEquals(key, "alarm") {
                settings.alarm = try readAlarmProperty(pending: &pending)
            } else if scanner.spanEquals(key, "shared_nodes") {
                if !(try SharedNodes.scan(&scanner) { _, _ in }) {
                    pending = pending ?? .property(.sharedNodes(written: snippet(start)))
                }
            } else if try readRuleProperty(key, into: &rules, pending: &pending) {
                // docs/fences.md, "Rules": FenceRuleProperties.swift
            } else {
                try scanner.skipValue()
            }
        } while try scanner.next(close: 0x7D)
    }

    /// A per-fence number setting, range-checked here (Limits): `"dwell": 1e16` is valid JSON but
    /// would overflow the engine's milliseconds.
    mutating func setting(_ key: String, unit: String, max: Double, pending: inout FenceProblem?) throws -> Double? {
        let start = scanner.pos
        if scanner.consumeNull() { return nil }
        if scanner.atNumber() {
            let v = try scanner.number()
            if let problem = Limits.check("property \(key)", v, .zero, max: max, unit: unit) {
                pending = pending ?? .property(.outOfRange(problem))
                return nil
            }
            return v
        } else {
            try scanner.skipValue()
        }
        pending = pending ?? .property(.notANonNegativeNumber(key: key, written: snippet(start), unit: unit))
        return nil
    }

    mutating func stringList(_ key: String, pending: inout FenceProblem?) throws -> [String] {
        let start = scanner.pos
        if scanner.consumeNull() { return [] }
        if scanner.peek() == 0x22 { return [try scanner.string(scanner.stringSpan())] }
        var out: [String] = []
        if scanner.peek() == 0x5B {
            scanner.pos += 1
            if scanner.consume(0x5D) { return out }
            repeat {
                if scanner.peek() == 0x22 {
                    out.append(try scanner.string(scanner.stringSpan()))
                } else {
                    let s = scanner.pos
                    try scanner.skipValue()
                    pending = pending ?? .property(.listItemNotAString(key: key, written: snippet(s)))
                }
            } while try scanner.next(close: 0x5D)
            return out
        }
        try scanner.skipValue()
        pending = pending ?? .property(.notAListOfStrings(key: key, written: snippet(start)))
        return out
    }
}

nonisolated(unsafe) let nullBytes: UnsafeMutablePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
    p.initialize(from: Array("null".utf8), count: 4)
    return p
}()
nonisolated(unsafe) let nullText = UnsafeBufferPointer(start: UnsafePointer(nullBytes), count: 4)
