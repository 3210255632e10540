import Platform

/// What is at a `--state` path, read before anything there is opened for writing or re-permissioned:
/// a command must never turn a fence file or someone's database into a state file, nor change its
/// mode (docs/running.md). Only the first bytes are read, through a read-only descriptor.
enum StateFileCheck {
    /// Why the file at `path` is not a gpsfence state file; nil when it is one, when nothing is there
    /// yet, or when it is empty (a new state: `touch`, `mktemp`). An SQLite database is checked for
    /// gpsfence's tables by `StateStore` itself, read-only.
    static func problem(_ path: String) -> StoreProblem? {
        // Missing, or unreadable: the open for writing says why.
        guard let head = try? FileHead.read(path, count: 64) else { return nil }
        guard head.status.kind == .regular else { return .notARegularFile }
        if head.bytes.isEmpty { return nil }
        let kind = FileKind.sniff(head.bytes)
        return kind == .sqlite ? nil : .notAStateFile(kind)
    }

    /// A guess at what a file of `kind` is, for the message.
    static func looksLike(_ kind: FileKind) -> String {
        switch kind {
        case .json: return "it is JSON: a fence file?"
        case .gpx, .kml, .osmXML, .xml: return "it is XML: a GPX or KML file?"
        case .nmea: return "it is NMEA: a capture?"
        case .sqlite, .osmPBF, .zip, .empty, .other: return "it is not an SQLite database"
        }
    }
}
