import JSONOutput

/// GPX (GPS Exchange Format): each waypoint a circle, each route and each track a corridor (a
/// track of several segments one fence of several lines). Names and descriptions are kept.
/// Ids: `gpx:FILE/wpt/N`, `gpx:FILE/rte/N`, `gpx:FILE/trk/N` (the file's name without its
/// folder and extension, N counting from 0 in the file's order).
struct GPXImport {
    let path: String
    let settings: ImportSettings
    let writer: FenceWriter

    func run() throws {
        let xml = XMLReader(source: try ByteSource(path: path))
        guard try xml.next() == .start, xml.nameIs("gpx") else {
            throw ImportError(file: path, place: xml.tokenPlace, problem: .wrongRoot(.gpx))
        }
        let stem = SourceFormat.stem(path)
        var counts = (waypoints: 0, routes: 0, tracks: 0)
        while true {
            switch try xml.next() {
            case .endOfFile: return
            case .text, .end: continue
            case .start: break
            }
            if xml.nameIs("wpt") {
                let position = try point(xml)
                var details = Details()
                try readChildren(xml) { try details.read(xml) }
                try add(
                    "gpx:\(stem)/wpt/\(counts.waypoints)", .point(position), details,
                    radius: ImportSettings.defaultPointRadius)
                counts.waypoints += 1
            } else if xml.nameIs("rte") || xml.nameIs("trk") {
                let isRoute = xml.nameIs("rte")
                var details = Details()
                var lines: [[Position]] = []
                var current: [Position] = []
                try readChildren(xml) {
                    if xml.nameIs("rtept") || xml.nameIs("trkpt") {
                        current.append(try point(xml))
                        try xml.skipElement()
                    } else if xml.nameIs("trkseg") {
                        if !current.isEmpty { lines.append(current) }
                        current = []
                        try readChildren(xml) {
                            if xml.nameIs("trkpt") { current.append(try point(xml)) }
                            try xml.skipElement()
                        }
                        if !current.isEmpty { lines.append(current) }
                        current = []
                    } else {
                        try details.read(xml)
                    }
                }
                if !current.isEmpty { lines.append(current) }
                let id = isRoute ? "gpx:\(stem)/rte/\(counts.routes)" : "gpx:\(stem)/trk/\(counts.tracks)"
                if isRoute { counts.routes += 1 } else { counts.tracks += 1 }
                let kept = lines.filter { Set($0.map { [$0.lon, $0.lat] }).count >= 2 }
                guard !kept.isEmpty else {
                    writer.summary.skip(
                        isRoute ? "route with fewer than two points" : "track with fewer than two points")
                    continue
                }
                try add(
                    id, kept.count == 1 ? .line(kept[0]) : .multiLine(kept), details,
                    radius: ImportSettings.defaultLineRadius)
            } else {
                try xml.skipElement()
            }
        }
    }

    /// `name` and `desc` (GPX's description), gathered from an element's children.
    struct Details {
        var name: String?
        var description: String?

        mutating func read(_ xml: XMLReader) throws {
            if xml.nameIs("name") {
                name = try xml.elementText()
            } else if xml.nameIs("desc") {
                description = try xml.elementText()
            } else {
                try xml.skipElement()
            }
        }
    }

    private func add(_ id: String, _ geometry: ImportedFence.Geometry, _ details: Details, radius: Double) throws {
        var properties: [(key: String, value: ImportedFence.Value)] = []
        if let name = details.name { properties.append(("name", .text(name))) }
        if let description = details.description { properties.append(("description", .text(description))) }
        properties.append(("radius", .number(settings.radius ?? radius, decimals: JSONPrecision.metres)))
        try writer.add(
            ImportedFence(id: id, geometry: geometry, properties: properties), decimals: JSONPrecision.coordinate)
    }

    private func point(_ xml: XMLReader) throws -> Position {
        guard let lat = xml.attribute("lat").flatMap(xml.double), let lon = xml.attribute("lon").flatMap(xml.double),
            abs(lat) <= 90, abs(lon) <= 180
        else {
            throw ImportError(
                file: path, place: xml.tokenPlace, problem: .pointWithoutPosition(element: xml.string(xml.name)))
        }
        return Position(lon: lon, lat: lat)
    }
}

/// Calls `body` at each child element's start tag of the element whose start tag was just read;
/// `body` must consume the child (read it whole or skip it).
func readChildren(_ xml: XMLReader, _ body: () throws -> Void) throws {
    guard xml.token == .start, !xml.selfClosing else { return }
    let level = xml.depth
    while true {
        switch try xml.next() {
        case .endOfFile: return
        case .end: if xml.depth < level { return }
        case .text: continue
        case .start: try body()
        }
    }
}
