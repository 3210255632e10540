import Platform

/// What is at a `--state` path, read before anything there is opened for writing or re-permissioned:
/// a command must never turn a fence file or someone's database into a state file, nor change its
/// mode (docs/running.md). Only the first bytes are read, through a read-only descriptor.
enum StateFileCheck {
    /// Why the file at `path` is not a gpsfence state file; nil when it is one, when nothing is there
    /// yet, or when it is empty (a new state: `touch`, `mktemp`). An SQLite database is checked for
    /// gpsfence's tables by `StateStore` itself, read-only.
    static func problem(_ path: String) -> String? {
        // Missing, or unreadable: the open for writing says why.
        guard let head = try? FileHead.read(path, count: 64) else { return nil }
        guard head.status.kind == .regular else {
            return
                "is not a gpsfence state file (not a regular file); give --state a new path or an existing state file"
        }
        if head.bytes.isEmpty { return nil }
        if FileKind.sniff(head.bytes) == .sqlite { return nil }
        return "is not a gpsfence state file (\(looksLike(head.bytes))); it was left as it was. "
            + "Give --state a new path (it is created) or a state file written by 'gpsfence run'"
    }

    /// A guess at what the file is, from its first bytes, for the message.
    static func looksLike(_ head: [UInt8]) -> String {
        switch FileKind.sniff(head) {
        case .json: return "it is JSON: a fence file?"
        case .gpx, .kml, .osmXML, .xml: return "it is XML: a GPX or KML file?"
        case .nmea: return "it is NMEA: a capture?"
        case .sqlite, .osmPBF, .zip, .empty, .other: return "it is not an SQLite database"
        }
    }
}
