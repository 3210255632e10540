/// What a file holds, told from its first bytes rather than its name: the one sniffer, for the
/// messages that tell a user which file went where (a GPX track given to `replay`, a KML file to
/// `--fences`, a fence file to `--state`) and for `fences import`, which reads a file by its kind.
public enum FileKind: Equatable, Sendable {
    case gpx
    case kml
    /// OpenStreetMap XML.
    case osmXML
    /// OpenStreetMap PBF.
    case osmPBF
    /// A zip archive (a KMZ).
    case zip
    /// JSON: a GeoJSON fence file or route.
    case json
    case nmea
    case sqlite
    /// Other XML.
    case xml
    case empty
    case other

    /// The kind of the file that begins with `head` (its first kilobyte is enough).
    public static func sniff<Bytes: Collection<UInt8>>(_ head: Bytes) -> FileKind {
        if head.starts(with: "SQLite format 3\u{0}".utf8) { return .sqlite }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        let skipped: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF]
        guard let first = head.first(where: { !skipped.contains($0) }) else { return .empty }
        switch first {
        case UInt8(ascii: "<"):
            let text = String(decoding: head.prefix(4096), as: UTF8.self).lowercased()
            if text.contains("<osm") { return .osmXML }
            if text.contains("<gpx") { return .gpx }
            if text.contains("<kml") { return .kml }
            return .xml
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        case UInt8(ascii: "$"), UInt8(ascii: "!"), UInt8(ascii: "#"): return .nmea
        default:
            if String(decoding: head.prefix(64), as: UTF8.self).contains("OSMHeader") { return .osmPBF }
            return .other
        }
    }

    /// The kind of the file at `path` from its first 4 kB (nil when it cannot be read).
    /// The corresponding C functions are those of `FileHead.read`.
    public static func sniff(path: String) -> FileKind? {
        guard let head = try? FileHead.read(path, count: 4096) else { return nil }
        return sniff(head.bytes)
    }
}
