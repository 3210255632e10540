#if canImport(Glibc)
    import Glibc
#endif

/// What is at a `--state` path, read before anything there is opened for writing or re-permissioned:
/// a command must never turn a fence file or someone's database into a state file, nor change its
/// mode (docs/running.md). Only the first bytes are read, through a read-only descriptor.
enum StateFileCheck {
    /// Why the file at `path` is not a gpsfence state file; nil when it is one, when nothing is there
    /// yet, or when it is empty (a new state: `touch`, `mktemp`). An SQLite database is checked for
    /// gpsfence's tables by `StateStore` itself, read-only. The corresponding C functions are
    /// `open`, `fstat` and `read`.
    static func problem(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return nil }  // missing, or unreadable: the open for writing says why
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return
                "is not a gpsfence state file (not a regular file); give --state a new path or an existing state file"
        }
        var head = [UInt8](repeating: 0, count: 64)
        var count = 0
        while count < head.count {
            let got = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        if count == 0 { return nil }
        if count >= sqliteMagic.count && Array(head[..<sqliteMagic.count]) == sqliteMagic { return nil }
        return "is not a gpsfence state file (\(looksLike(head[..<count]))); it was left as it was. "
            + "Give --state a new path (it is created) or a state file written by 'gpsfence run'"
    }

    /// The 16 bytes every SQLite 3 database begins with.
    static let sqliteMagic = Array("SQLite format 3\u{0}".utf8)

    /// A guess at what the file is, from its first bytes, for the message.
    static func looksLike(_ head: ArraySlice<UInt8>) -> String {
        let first = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["): return "it is JSON: a fence file?"
        case UInt8(ascii: "<"): return "it is XML: a GPX or KML file?"
        case UInt8(ascii: "$"), UInt8(ascii: "!"): return "it is NMEA: a capture?"
        default: return "it is not an SQLite database"
        }
    }
}
