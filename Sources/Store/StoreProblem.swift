import GRDB
import Platform

/// Why a state file cannot be opened or used; the words are written once, in `text`.
public enum StoreProblem: Error, Sendable {
    /// Something other than a regular file is at the path.
    case notARegularFile
    /// A file that is not an SQLite database; its kind as its first bytes tell it.
    case notAStateFile(FileKind)
    /// An SQLite database without gpsfence's tables.
    case foreignDatabase
    /// A state file whose tables an older gpsfence wrote (opened read-only, so not brought up to date).
    case olderVersion
    case cannotMakeFolder(PrivateFiles.FolderProblem)
    /// The state file could not be opened (or created) for writing.
    case cannotOpen(FileCallError)
    /// The new state file could not be made beside its path.
    case cannotMake(FileCallError)
    case walNotSynced(FileCallError)
    case walNotOpened(FileCallError)
    /// SQLite (through GRDB) refused: said in its own words.
    case database(any Error)

    public var text: String {
        switch self {
        case .notARegularFile:
            "is not a gpsfence state file (not a regular file); give --state a new path or an existing state file"
        case .notAStateFile(let kind):
            "is not a gpsfence state file (\(StateFileCheck.looksLike(kind))); it was left as it was. "
                + "Give --state a new path (it is created) or a state file written by 'gpsfence run'"
        case .foreignDatabase:
            "is an SQLite database but not a gpsfence state file (it has no fence_state table); it was left as it was"
        case .olderVersion: "was written by an older gpsfence; 'gpsfence run' or 'replay --state' brings it up to date"
        case .cannotMakeFolder(let problem): "cannot create its folder: \(problem.text)"
        case .cannotOpen(let failure): failure.reason
        case .cannotMake(let failure): "\(failure.path): \(failure.reason)"
        case .walNotSynced(let failure): "fdatasync of its WAL failed: \(failure.reason)"
        case .walNotOpened(let failure): "cannot open its WAL to sync it: \(failure.reason)"
        case .database(let error): Self.sqliteWords(error)
        }
    }

    /// SQLite's own words, with its extended result code when that says more than the primary
    /// one: "disk I/O error" alone is any of some thirty failures (a write, an fsync, the map of
    /// the WAL's shared memory...).
    static func sqliteWords(_ error: any Error) -> String {
        guard let sqlite = error as? DatabaseError, sqlite.extendedResultCode != sqlite.resultCode else {
            return "\(error)"
        }
        return "\(error) (SQLite's extended result code \(sqlite.extendedResultCode.rawValue))"
    }
}
