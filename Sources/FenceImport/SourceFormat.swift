#if canImport(Glibc)
    import Glibc
#endif

/// What a source file is: told by its name's ending, else by its first bytes.
enum SourceFormat: Equatable {
    case osmXML, osmPBF, gpx, kml, kmz

    /// Drawn by a person (every element meant as a fence), as against an extract of a map, where
    /// a selection that finds nothing is an answer.
    var isDrawn: Bool {
        switch self {
        case .gpx, .kml, .kmz: true
        case .osmXML, .osmPBF: false
        }
    }

    static func of(_ path: String) throws(ImportError) -> SourceFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".osm.pbf") || lower.hasSuffix(".pbf") { return .osmPBF }
        if lower.hasSuffix(".osm") || lower.hasSuffix(".osm.xml") { return .osmXML }
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".kml") { return .kml }
        if lower.hasSuffix(".kmz") { return .kmz }
        let source = try ByteSource(path: path)
        let headBytes = UnsafeMutableRawPointer.allocate(byteCount: 1024, alignment: 1)
        defer { headBytes.deallocate() }
        let count = try source.read(into: headBytes, count: 1024)
        let head = Array(UnsafeRawBufferPointer(start: headBytes, count: count))
        let text = String(decoding: head[0..<count], as: UTF8.self)
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .kmz }
        if text.contains("<osm") { return .osmXML }
        if text.contains("<gpx") { return .gpx }
        if text.contains("<kml") { return .kml }
        if text.prefix(64).contains("OSMHeader") { return .osmPBF }
        throw ImportError(
            file: path,
            problem: "not a file fences import reads: give an OpenStreetMap file (.osm.pbf, .osm), KML, KMZ or GPX")
    }
}

extension SourceFormat {
    /// The file's name without its folder and its extension: `My Places` for `/tmp/My Places.kml`.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
