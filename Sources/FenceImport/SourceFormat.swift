import Platform

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
        _ = try ByteSource(path: path)  // a missing file or a folder is said as the import's readers say it
        let head: FileHead
        do { head = try FileHead.read(path, count: 1024) } catch {
            throw ImportError(file: path, problem: .unreadable(error))
        }
        switch FileKind.sniff(head.bytes) {
        case .zip: return .kmz
        case .osmXML: return .osmXML
        case .gpx: return .gpx
        case .kml: return .kml
        case .osmPBF: return .osmPBF
        case .json, .nmea, .sqlite, .xml, .empty, .other: break
        }
        throw ImportError(file: path, problem: .unknownFormat)
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
