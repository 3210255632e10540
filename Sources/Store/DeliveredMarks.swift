import GRDB

/// The outbox's "delivered" marks, kept in memory until the next write to the state file carries
/// them (an event's commit, the track write, the end of delivery), instead of a transaction of their
/// own per delivered event: on a Raspberry Pi that transaction was a third of what an event wrote
/// to the SD card (docs/performance.md, "Live cost"). A mark lost to a crash only means that event is
/// sent once more, with the same `id` (docs/running.md, "Power cuts").
struct DeliveredMarks {
    struct Mark {
        var seq: Int64
        var target: String
        var time: Int64
    }

    private(set) var marks: [Mark] = []

    /// More than this many waiting marks are written at once (a long replay without a track).
    static let most = 64

    var isFull: Bool { marks.count >= Self.most }

    mutating func add(_ mark: Mark) { marks.append(mark) }

    /// The rows of `target` delivered but not yet marked in the file.
    func seqs(target: String) -> [Int64] { marks.filter { $0.target == target }.map(\.seq) }

    /// Drops the marks that a committed transaction wrote.
    mutating func forget(_ written: [Mark]) {
        let seqs = Set(written.map(\.seq))
        marks.removeAll { seqs.contains($0.seq) }
    }
}

extension StateStore {
    /// Writes the waiting marks inside the caller's transaction and forgets them once they are in it
    /// (the queue runs one transaction at a time, so no reader sees them both in memory and in the
    /// file).
    func writeDeliveredMarks(_ db: Database) throws {
        let waiting = deliveredMarks.withLock { $0.marks }
        guard !waiting.isEmpty else { return }
        for mark in waiting {
            try db.executeCached(
                sql: "UPDATE outbox SET delivered_at = ?, attempts = attempts + 1 WHERE seq = ?",
                arguments: [mark.time, mark.seq])
        }
        deliveredMarks.withLock { $0.forget(waiting) }
    }

    /// `seq NOT IN (...)` for the rows of `target` delivered but not yet marked, with its arguments.
    func notYetMarked(target: String) -> (sql: String, arguments: StatementArguments) {
        let seqs = deliveredMarks.withLock { $0.seqs(target: target) }
        guard !seqs.isEmpty else { return ("1", []) }
        return ("seq NOT IN (\(databaseQuestionMarks(count: seqs.count)))", StatementArguments(seqs))
    }
}
