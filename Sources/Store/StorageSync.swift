import Foundation
import GRDB
import Platform

/// Making commits durable on storage, for the sinks that must never see an event a power cut could
/// take back (docs/running.md, "Power cuts").
///
/// The state file commits with `synchronous=NORMAL`: a commit is in the WAL (the kernel's page
/// cache) when it returns, which survives a `kill -9` but not a power cut. `syncToStorage` then
/// `fdatasync`s the WAL, off the engine thread, for every commit up to that moment at once. Until
/// then the outbox keeps the new rows to itself (`nextUndelivered` does not return them).
extension StateStore {
    /// `fdatasync(2)` of the WAL, so that every transaction committed before the call survives a power
    /// cut. The database file needs none: SQLite syncs it after each checkpoint.
    public func syncToStorage() throws(StoreError) {
        do {
            try syncFileData(path + "-wal")
        } catch {
            guard error.call == "open" else {
                throw StoreError(path: path, problem: .walNotSynced(error))
            }
            // No WAL: everything is in the database file, synced by the checkpoint that removed it.
            if error.errno == .noSuchFileOrDirectory { return }
            throw StoreError(path: path, problem: .walNotOpened(error))
        }
    }

    /// From now on, outbox rows are handed out only once `releaseOutbox(through:)` says they are on
    /// storage. The rows already there are synced first and released.
    public func holdOutboxUntilSynced() throws(StoreError) {
        try syncToStorage()
        let newest: Int64
        do {
            newest = try database.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM outbox") } ?? 0
        } catch {
            throw StoreError(path: path, problem: .database(error))
        }
        outboxSync.withLock { $0 = OutboxSync(committed: newest, durable: newest) }
    }

    /// The newest outbox row committed so far: after a `syncToStorage` begun after reading it, every
    /// row up to it is durable.
    public var newestCommittedOutboxRow: Int64 { outboxSync.withLock { $0.committed } }

    /// The rows up to `seq` are on storage: delivery may take them.
    public func releaseOutbox(through seq: Int64) {
        outboxSync.withLock { $0.durable = max($0.durable, seq) }
    }

    /// Called in the commit that added outbox rows.
    func noteCommittedOutboxRow(_ seq: Int64) {
        outboxSync.withLock { $0.committed = max($0.committed, seq) }
    }

    /// The newest row delivery may take.
    var durableOutboxRow: Int64 { outboxSync.withLock { $0.durable } }
}

/// Which outbox rows are committed and which are also synced. Until `holdOutboxUntilSynced`, every
/// row counts as durable (a replay without a state-file sync, the unit tests).
struct OutboxSync {
    var committed: Int64 = 0
    var durable: Int64 = .max
}
