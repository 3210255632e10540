import JSONOutput

/// KML as Google Earth and My Maps write it: each Placemark a fence, a Point a circle (radius from
/// `--radius`, else a `radius` in its ExtendedData, else 10 m), a Polygon a polygon with its inner
/// boundaries as holes, a LineString a corridor; a MultiGeometry of one kind one fence. Kept as
/// properties: `name`, `description`, `folder` (the Folders it is in, outermost first, joined by
/// " / ") and the ExtendedData values (the fence settings among them as numbers). Ids: `kml:ID`
/// from the Placemark's `id`, else `kml:FILE/N` (N counting Placemarks from 0).
struct KMLImport {
    let path: String
    let settings: ImportSettings
    let writer: FenceWriter

    func run() throws {
        try run(XMLReader(source: try ByteSource(path: path)))
    }

    func run(_ xml: XMLReader) throws {
        guard try xml.next() == .start, xml.nameIs("kml") else {
            throw ImportError(file: path, place: xml.tokenPlace, problem: .wrongRoot(.kml))
        }
        let stem = SourceFormat.stem(path)
        var folders: [String?] = []
        var folderDepths: [Int] = []
        var placemarks = 0
        while true {
            switch try xml.next() {
            case .endOfFile: return
            case .text: continue
            case .end:
                if let depth = folderDepths.last, xml.depth < depth {
                    folderDepths.removeLast()
                    folders.removeLast()
                }
                continue
            case .start: break
            }
            if xml.nameIs("Folder") {
                if !xml.selfClosing {
                    folders.append(nil)
                    folderDepths.append(xml.depth)
                }
            } else if xml.nameIs("name"), let depth = folderDepths.last, xml.depth == depth + 1 {
                folders[folders.count - 1] = try xml.elementText()
            } else if xml.nameIs("Placemark") {
                let id = xml.attribute("id").map { "kml:" + xml.string($0) } ?? "kml:\(stem)/\(placemarks)"
                placemarks += 1
                let placemark = try readPlacemark(xml)
                try add(placemark, id: id, folder: folders.compactMap { $0 })
            } else if xml.nameIs("Document") || xml.nameIs("kml") {
                continue
            } else {
                try xml.skipElement()
            }
        }
    }

    private struct Placemark {
        var name: String?
        var description: String?
        var data: [(key: String, value: String)] = []
        var points: [Position] = []
        var lines: [[Position]] = []
        var polygons: [[[Position]]] = []
    }

    private func readPlacemark(_ xml: XMLReader) throws -> Placemark {
        var placemark = Placemark()
        try readChildren(xml) {
            if xml.nameIs("name") {
                placemark.name = try xml.elementText()
            } else if xml.nameIs("description") {
                placemark.description = try xml.elementText()
            } else if xml.nameIs("ExtendedData") {
                try readChildren(xml) {
                    if xml.nameIs("Data"), let name = xml.attribute("name").map(xml.string) {
                        var value = ""
                        try readChildren(xml) {
                            if xml.nameIs("value") { value = try xml.elementText() } else { try xml.skipElement() }
                        }
                        placemark.data.append((name, value))
                    } else if xml.nameIs("SchemaData") {
                        try readChildren(xml) {
                            if xml.nameIs("SimpleData"), let name = xml.attribute("name").map(xml.string) {
                                placemark.data.append((name, try xml.elementText()))
                            } else {
                                try xml.skipElement()
                            }
                        }
                    } else {
                        try xml.skipElement()
                    }
                }
            } else {
                try readGeometry(xml, into: &placemark)
            }
        }
        return placemark
    }

    private func readGeometry(_ xml: XMLReader, into placemark: inout Placemark) throws {
        if xml.nameIs("Point") {
            try readChildren(xml) {
                if xml.nameIs("coordinates") { placemark.points += try coordinates(xml) } else { try xml.skipElement() }
            }
        } else if xml.nameIs("LineString") {
            try readChildren(xml) {
                if xml.nameIs("coordinates") {
                    placemark.lines.append(try coordinates(xml))
                } else {
                    try xml.skipElement()
                }
            }
        } else if xml.nameIs("Polygon") {
            var rings: [[Position]] = []
            var outer: [Position]?
            try readChildren(xml) {
                let isOuter = xml.nameIs("outerBoundaryIs")
                guard isOuter || xml.nameIs("innerBoundaryIs") else { return try xml.skipElement() }
                try readChildren(xml) {
                    guard xml.nameIs("LinearRing") else { return try xml.skipElement() }
                    try readChildren(xml) {
                        guard xml.nameIs("coordinates") else { return try xml.skipElement() }
                        let ring = try coordinates(xml)
                        if isOuter { outer = ring } else { rings.append(ring) }
                    }
                }
            }
            if let outer { placemark.polygons.append([outer] + rings) }
        } else if xml.nameIs("MultiGeometry") {
            try readChildren(xml) { try readGeometry(xml, into: &placemark) }
        } else {
            try xml.skipElement()
        }
    }

    /// `lon,lat[,alt]` tuples separated by white space.
    private func coordinates(_ xml: XMLReader) throws -> [Position] {
        let mark = xml.tokenMark
        var text = try xml.elementText()
        switch CoordinatesText.positions(&text) {
        case .success(let positions): return positions
        case .failure(let refused):
            throw ImportError(
                file: path, place: xml.place(ofMark: mark), problem: .badCoordinates(tuple: refused.tuple))
        }
    }

    private func add(_ placemark: Placemark, id: String, folder: [String]) throws {
        let geometry: ImportedFence.Geometry
        var radius: Double?
        let kinds = [!placemark.points.isEmpty, !placemark.lines.isEmpty, !placemark.polygons.isEmpty].filter { $0 }
        guard kinds.count == 1 else {
            writer.summary.skip(
                kinds.isEmpty ? "placemark without a geometry" : "placemark mixing points, lines and polygons")
            return
        }
        if let point = placemark.points.first {
            guard placemark.points.count == 1 else {
                writer.summary.skip("placemark of several points")
                return
            }
            geometry = .point(point)
            radius = ImportSettings.defaultPointRadius
        } else if !placemark.lines.isEmpty {
            guard placemark.lines.allSatisfy({ Set($0.map { [$0.lon, $0.lat] }).count >= 2 }) else {
                writer.summary.skip("line with fewer than two positions")
                return
            }
            geometry = placemark.lines.count == 1 ? .line(placemark.lines[0]) : .multiLine(placemark.lines)
            radius = ImportSettings.defaultLineRadius
        } else {
            var polygons: [[[Position]]] = []
            for polygon in placemark.polygons {
                let rings = polygon.map { ring in ring.first == ring.last ? ring : ring + [ring[0]] }
                guard rings.allSatisfy({ $0.count >= 4 }) else {
                    writer.summary.skip("polygon ring with fewer than three corners")
                    return
                }
                polygons.append(rings)
            }
            geometry = polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
        }
        var properties: [(key: String, value: ImportedFence.Value)] = []
        if let name = placemark.name { properties.append(("name", .text(name))) }
        if let description = placemark.description { properties.append(("description", .text(description))) }
        if !folder.isEmpty { properties.append(("folder", .text(folder.joined(separator: " / ")))) }
        for (key, value) in placemark.data where !["name", "description", "folder"].contains(key) {
            guard !properties.contains(where: { $0.key == key }) else { continue }
            let forms = settings.propertyForms
            if forms.choices[key] != nil {
                if let problem = forms.problem(key, value) {
                    writer.summary.skip("placemark whose \(key) \(problem)", example: value)
                    return
                }
                properties.append((key, .text(value.trimmingSpaces)))
            } else if forms.conditionals[key] != nil {
                // The parts at a time are kept; the others are said in the summary, never applied.
                guard let kept = forms.conditional(key, value, summary: &writer.summary) else { continue }
                properties.append((key, .text(kept)))
            } else if let measure = forms.measures[key], !isPositiveNumber(value) {
                // A measure as the sign writes it (`11'`, `3.4 m`, `7.5 t`) is kept as written: the
                // loader reads it as `--vehicle-height` or `--vehicle-weight` is read.
                guard let amount = measure.read(value.trimmingSpaces), amount.isFinite else {
                    writer.summary.skip("placemark whose \(key) is not \(measure.forms)", example: value)
                    return
                }
                properties.append((key, .text(value.trimmingSpaces)))
            } else if key == "radius" || forms.numberKeys.contains(key) || forms.measures[key] != nil {
                guard let number = Double(value.trimmingSpaces), number.isFinite, number > 0 else {
                    writer.summary.skip("placemark whose \(key) is not a positive number", example: value)
                    return
                }
                if key == "radius" {
                    radius = radius.map { _ in number }
                    continue
                }
                properties.append((key, .number(number, decimals: 6)))
            } else {
                properties.append((key, .text(value)))
            }
        }
        if let radius {
            properties.append(("radius", .number(settings.radius ?? radius, decimals: JSONPrecision.metres)))
        }
        try writer.add(
            ImportedFence(id: id, geometry: geometry, properties: properties), decimals: JSONPrecision.coordinate)
    }

    private func isPositiveNumber(_ text: String) -> Bool {
        guard let number = Double(text.trimmingSpaces) else { return false }
        return number.isFinite && number > 0
    }
}
