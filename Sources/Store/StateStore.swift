import Events
import Fences
import Foundation
import GRDB
import NMEA
import Platform

/// The state file of docs/running.md: SQLite in WAL mode holding each fence's state, the event log, the
/// visits and the webhook outbox. Created with mode 0600 (it records where someone has been).
///
/// Crash safety comes from the order of work, not from this class alone: the runtime commits a
/// fix's events and the resulting fence states in one transaction *before* printing them, so a
/// `kill -9` at any moment loses no printed event, and a restart restores the committed states
/// silently (no second `enter`).
public final class StateStore: @unchecked Sendable {
    public let path: String
    let database: StoreDatabase
    /// The background WAL checkpoints of a long-running engine (`startBackgroundCheckpoints`).
    let checkpointer = Locked<Checkpointer?>(nil)
    /// Which outbox rows delivery may take (`StorageSync.swift`).
    let outboxSync = Locked(OutboxSync())
    /// "Delivered" marks waiting for the next write (`DeliveredMarks.swift`).
    let deliveredMarks = Locked(DeliveredMarks())

    /// How a command uses the state file.
    public enum Access: Sendable {
        /// `run`, `replay --state`: created if missing, migrated, tightened to 0600.
        case readWrite
        /// `status`, `visits`, `report`: an existing state file, opened read-only; nothing on disk
        /// changes, not even its mode.
        case readOnly
    }

    /// Opens (or creates) the store at `path`, creating missing parent folders (mode 0700), and
    /// tightens an existing state file that group or others could read to 0600. Whatever is at
    /// `path` is checked to be a gpsfence state file (or nothing, or empty) first: a fence file or
    /// another program's database is refused untouched (docs/running.md).
    public init(path: String, access: Access = .readWrite) throws(StoreError) {
        self.path = path
        if let problem = StateFileCheck.problem(path) { throw StoreError(path: path, problem: problem) }
        if access == .readOnly {
            database = StoreDatabase(queue: try Self.openReadOnly(path), path: path)
            return
        }
        if Self.isForeignDatabase(path) { throw StoreError(path: path, problem: .foreignDatabase) }
        let url = URL(fileURLWithPath: path)
        if let problem = PrivateFiles.makeFolders(url.deletingLastPathComponent().path) {
            throw StoreError(path: path, problem: .cannotMakeFolder(problem))
        }
        if Self.isNew(path) { try Self.makeWhole(path) }
        // Create the file ourselves so that it is 0600 from its first byte; SQLite gives the -wal
        // and -shm files the same permissions as the database file.
        if let failure = PrivateFiles.create(path) { throw StoreError(path: path, problem: .cannotOpen(failure)) }
        for suffix in ["-wal", "-shm"] { PrivateFiles.tighten(path: path + suffix) }
        do {
            let queue = try DatabaseQueue(path: path, configuration: Self.configuration)
            try Self.migrator.migrate(queue)
            database = StoreDatabase(queue: queue, path: path)
        } catch {
            throw StoreError(path: path, problem: .database(error))
        }
    }

    /// Where a new state file is made before it takes its name (docs/running.md, "Power cuts").
    static func makingPath(for path: String) -> String { path + ".new" }

    /// Nothing at `path`, or an empty file (`touch`) that is not a symlink: a state file to make.
    static func isNew(_ path: String) -> Bool {
        do {
            let info = try FileStatus.ofLink(path)
            return info.kind == .regular && info.size == 0
        } catch {
            return error.errno == .noSuchFileOrDirectory
        }
    }

    /// Makes a new state file whole before it takes its name: built at `makingPath` (what a killed
    /// making left there is gpsfence's own and is cleared first), closed, which folds the WAL into
    /// the file, synced, and renamed over `path`. A kill or a power cut at any moment leaves no
    /// state file or a whole one, never an SQLite file without gpsfence's tables, which every later
    /// run would refuse as someone else's database.
    static func makeWhole(_ path: String) throws(StoreError) {
        let making = makingPath(for: path)
        for leftover in [making, making + "-wal", making + "-shm"] { removeFile(leftover) }
        if let failure = PrivateFiles.create(making) { throw StoreError(path: path, problem: .cannotMake(failure)) }
        do {
            let queue = try DatabaseQueue(path: making, configuration: configuration)
            try migrator.migrate(queue)
            try queue.close()
            try syncFileData(making)
            try moveIntoPlace(making, over: path)
        } catch {
            for leftover in [making, making + "-wal", making + "-shm"] { removeFile(leftover) }
            throw StoreError(path: path, problem: .database(error))
        }
    }

    /// How every writing connection to a state file is set up.
    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            // The smallest pages SQLite has, for a new file (an existing one keeps its size): an
            // event's commit touches a dozen pages (event, outbox, fence states, their indexes, the
            // track riding along), each written whole to the WAL and again at the checkpoint, most
            // of them to change a few bytes. A live run's WAL grows by a quarter less per commit
            // than with 1 KB pages (docs/performance.md, "Live cost").
            try db.execute(sql: "PRAGMA page_size = 512")
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            // A committed transaction survives a kill -9 of the process (the WAL is written before
            // COMMIT returns); NORMAL only risks the last transactions on a power cut, and what
            // must survive one is synced on purpose (`syncToStorage`, docs/running.md).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Bounds the WAL file a burst (a fast replay) leaves behind, once checkpointed.
            try db.execute(sql: "PRAGMA journal_size_limit = \(StateStore.walReserve)")
        }
        return configuration
    }

    /// An existing state file for reading only: no folder, no file, no migration, no mode change.
    static func openReadOnly(_ path: String) throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let database = try DatabaseQueue(path: path, configuration: configuration)
            let (isStateFile, isCurrent) = try database.read { db in
                (try db.tableExists("fence_state"), try migrator.hasCompletedMigrations(db))
            }
            guard isStateFile else { throw StoreError(path: path, problem: .foreignDatabase) }
            guard isCurrent else { throw StoreError(path: path, problem: .olderVersion) }
            return database
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, problem: .database(error))
        }
    }

    /// Whether `path` holds an SQLite database that is not a state file (checked read-only, before
    /// anything is written); false for a state file, an empty file or no file.
    static func isForeignDatabase(_ path: String) -> Bool {
        guard let info = try? FileStatus.of(path), info.size > 0 else { return false }
        var configuration = Configuration()
        configuration.readonly = true
        guard let database = try? DatabaseQueue(path: path, configuration: configuration),
            let hasTable = try? database.read({ db in try db.tableExists("fence_state") })
        else { return false }  // unreadable: the open for writing says why
        return !hasTable
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fence_state (
                        fence_id TEXT PRIMARY KEY,
                        geometry_hash INTEGER NOT NULL,
                        inside INTEGER NOT NULL,
                        enter_time INTEGER NOT NULL,
                        dwell_fired INTEGER NOT NULL
                    );
                    CREATE TABLE event (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        type TEXT NOT NULL,
                        time INTEGER NOT NULL,
                        fence_id TEXT,
                        json TEXT NOT NULL
                    );
                    CREATE TABLE visit (
                        event_id TEXT PRIMARY KEY,
                        fence_id TEXT NOT NULL,
                        fence_name TEXT,
                        enter_time INTEGER NOT NULL,
                        exit_time INTEGER NOT NULL,
                        duration REAL NOT NULL
                    );
                    CREATE INDEX visit_by_time ON visit(enter_time);
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        endpoint TEXT NOT NULL,
                        event_id TEXT NOT NULL,
                        body TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt INTEGER NOT NULL DEFAULT 0,
                        delivered_at INTEGER,
                        last_error TEXT,
                        UNIQUE(endpoint, event_id)
                    );
                    CREATE INDEX outbox_pending ON outbox(endpoint, delivered_at, seq);
                    """)
        }
        // docs/report.md: the track (one usable fix per second at most), the odometer per UTC day, and
        // what the receiver and the run last said, for `status` and `report`. A v1 file gains the
        // empty tables and keeps everything it had.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: TrackSchema.v2)
        }
        // The OwnTracks transition that MQTT publishes with an event gets its own column; before,
        // it rode on a second line of the body. Rows of an older file are split (an event's JSON
        // is one line, so the first line feed is the seam).
        migrator.registerMigration("v3") { db in
            try db.execute(
                sql: """
                    ALTER TABLE outbox ADD COLUMN transition TEXT;
                    UPDATE outbox SET transition = substr(body, instr(body, char(10)) + 1),
                        body = substr(body, 1, instr(body, char(10)) - 1)
                    WHERE instr(body, char(10)) > 0;
                    """)
        }
        // The track sync's cursors (docs/running.md): an older file gains the empty table.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: TrackSyncSchema.v4)
        }
        // Fewer pages written per event (docs/performance.md, "Live cost"). The event log and the
        // outbox lose AUTOINCREMENT: no row is ever deleted from either, so a new seq is still
        // above every earlier one.
        migrator.registerMigration("v5-fewer-pages") { db in
            try db.execute(sql: FewerPagesSchema.migration)
        }
        // The fence layers (anchor, OwnTracks regions: docs/running.md): an older file gains the empty table.
        migrator.registerMigration(LayerCircleSchema.migrationName) { db in
            try db.execute(sql: LayerCircleSchema.sql)
        }
        // The fence set last accepted from the broker (docs/running.md, "Fences from the broker"), so
        // that a restart without the broker runs on it: an older file gains the empty table.
        migrator.registerMigration("fences-from-broker") { db in
            try db.execute(sql: AcceptedFenceSetSchema.table)
        }
        // How often the run that owns the file writes it, so that `status` tells a live run with a long
        // `--track-write-interval` from a dead one.
        migrator.registerMigration("write-interval") { db in
            try db.execute(sql: "ALTER TABLE receiver ADD COLUMN write_interval INTEGER")
        }
        // Fewer index pages per event's commit (docs/performance.md, "Live cost").
        migrator.registerMigration(LeanerIndexesSchema.migrationName) { db in
            try db.execute(sql: LeanerIndexesSchema.migration)
        }
        // What `status` needs to speak of the last run truly: when each delivery error happened,
        // which targets that run had, and whether it was a replay.
        migrator.registerMigration(RunTargetsSchema.migrationName) { db in
            try db.execute(sql: RunTargetsSchema.migration)
        }
        // How many fixes the run did not believe (receiver glitches), for `status`.
        migrator.registerMigration("ignored-fixes") { db in
            try db.execute(sql: "ALTER TABLE receiver ADD COLUMN ignored_fixes INTEGER")
        }
        // The alarm's latch and the answers waiting for it (docs/running.md, "Alarms").
        migrator.registerMigration(AlarmSchema.migrationName) { db in
            try db.execute(sql: AlarmSchema.sql)
        }
        migrator.registerMigration(AnchorMaxDistanceSchema.migrationName) { db in
            try db.execute(sql: AnchorMaxDistanceSchema.sql)
        }
        // An exit `delay`'s count, kept over a restart (docs/fences.md, "delay").
        migrator.registerMigration(ExitDelaySchema.migrationName) { db in
            try db.execute(sql: ExitDelaySchema.sql)
        }
        return migrator
    }

    // MARK: - Fence states

    /// The states saved by the last run, for `EventEngine.restore`.
    public func fenceStates() throws -> [FenceStateRecord] {
        try database.read { db in
            // A row that does not read back (wrong types, a time out of range) is left out: that
            // fence starts fresh, as one whose geometry changed.
            try Row.fetchAll(db, sql: "SELECT * FROM fence_state WHERE inside = 1").compactMap { row in
                guard let text = row.stored("fence_id", as: String.self), let id = FenceID(json: text),
                    let hash = row.stored("geometry_hash", as: Int64.self),
                    let enterTime = row.storedTime("enter_time"),
                    let dwellFired = row.stored("dwell_fired", as: Bool.self)
                else { return nil }
                // A count that does not read back is no count: the delay begins again.
                return FenceStateRecord(
                    fenceID: id, geometryHash: UInt64(bitPattern: hash), inside: true,
                    enterTime: enterTime, dwellFired: dwellFired, exitDelaySince: row.storedTime("exit_delay_since"))
            }
        }
    }

    // MARK: - Committing a fix's events

    /// A visit's own row (what `visits` lists), beside its row in the event log.
    private static func recordVisit(_ outgoing: OutgoingEvent, fences: FenceSet, in db: Database) throws {
        guard case .visit(let visit) = outgoing.event.payload else { return }
        try db.executeCached(
            sql: """
                INSERT OR IGNORE INTO visit (event_id, fence_id, fence_name, enter_time, exit_time, duration)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                outgoing.id, fences.ids[visit.fence].json, fences.name(visit.fence),
                visit.enterTime.millisecondsSinceEpoch, visit.exitTime.millisecondsSinceEpoch, visit.duration,
            ])
    }

    /// Records the events of one fix, the fence states after it, the visits among the events, and
    /// one outbox row per event and outbox target (webhook, broker), in one transaction. Events already in the
    /// log (same id: the same input replayed after a restart) are not recorded twice; the events
    /// that were new are returned, in order.
    @discardableResult
    public func commit(
        events: [OutgoingEvent], insideStates: [FenceStateRecord], fences: FenceSet, outboxTargets: [String] = [],
        motion: MotionRecord? = nil, track: TrackBatch? = nil
    ) throws -> [OutgoingEvent] {
        try commit(
            events: events, insideStates: insideStates, fences: fences,
            outbox: outboxTargets.map { OutboxTarget(name: $0) }, motion: motion, track: track)
    }

    /// As above, with each target's own row body (`OutboxTarget.body`). `track`, the rows the
    /// track recorder has buffered (`TrackRecorder.batchForEventCommit`), is written in the same
    /// transaction.
    @discardableResult
    public func commit(
        events: [OutgoingEvent], insideStates: [FenceStateRecord], fences: FenceSet, outbox: [OutboxTarget],
        motion: MotionRecord? = nil, track: TrackBatch? = nil, alarm: AlarmLatch?? = .none
    ) throws -> [OutgoingEvent] {
        try database.write { db in
            var fresh: [OutgoingEvent] = []
            for outgoing in events {
                let event = outgoing.event
                try db.executeCached(
                    sql: "INSERT OR IGNORE INTO event (id, type, time, fence_id, json) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        outgoing.id, event.kind.rawValue, event.time.millisecondsSinceEpoch,
                        event.fence.map { fences.ids[$0].json }, outgoing.json,
                    ])
                guard db.changesCount > 0 else { continue }
                fresh.append(outgoing)
                switch event.kind {
                case .visit:
                    try Self.recordVisit(outgoing, fences: fences, in: db)
                case .enter, .exit, .dwell, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
                    .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving,
                    .anchorWarning, .alarm, .alarmAcknowledged, .alarmCleared, .integrity:
                    break  // a row in the event log is all they have; the alarm's latch is written below
                }
                for target in outbox {
                    let payload = target.payload(outgoing, fences)
                    // A body that is the event itself is read from the event log (`LeanerIndexesSchema`).
                    try db.executeCached(
                        sql: "INSERT INTO outbox (endpoint, event_id, body, transition) VALUES (?, ?, ?, ?)",
                        arguments: [
                            target.name, outgoing.id, payload.body == outgoing.json ? nil : payload.body,
                            payload.transition,
                        ])
                    if db.changesCount > 0 { noteCommittedOutboxRow(db.lastInsertedRowID) }
                }
            }
            // Only the rows that changed are written: rewriting every state (and the stop) with each
            // event rewrote their pages and index pages each time (docs/performance.md, "Live cost").
            try db.executeCached(sql: "DELETE FROM fence_state WHERE typeof(fence_id) != 'text'")
            var stored: [String: StoredFenceState] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT fence_id, geometry_hash, enter_time, dwell_fired, exit_delay_since FROM fence_state"))
            {
                guard let id = row.stored("fence_id", as: String.self) else { continue }
                stored[id] = StoredFenceState(
                    geometryHash: row.stored("geometry_hash", as: Int64.self),
                    enterTime: row.stored("enter_time", as: Int64.self),
                    dwellFired: row.stored("dwell_fired", as: Bool.self),
                    exitDelaySince: row.stored("exit_delay_since", as: Int64.self))
            }
            for state in insideStates {
                let key = state.fenceID.json
                let wanted = StoredFenceState(
                    geometryHash: Int64(bitPattern: state.geometryHash), enterTime: state.enterTime,
                    dwellFired: state.dwellFired, exitDelaySince: state.exitDelaySince)
                if stored.removeValue(forKey: key) == wanted { continue }
                try db.executeCached(
                    sql: """
                        INSERT OR REPLACE INTO fence_state
                            (fence_id, geometry_hash, inside, enter_time, dwell_fired, exit_delay_since)
                        VALUES (?, ?, 1, ?, ?, ?)
                        """,
                    arguments: [key, wanted.geometryHash, wanted.enterTime, wanted.dwellFired, wanted.exitDelaySince])
            }
            for key in stored.keys {
                try db.executeCached(sql: "DELETE FROM fence_state WHERE fence_id = ?", arguments: [key])
            }
            // The stop, if any, travels with the events that began or ended it (docs/report.md).
            let storedMotion = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT lat, lon, since FROM motion WHERE id = 1")
            ).map {
                row -> MotionRecord in
                MotionRecord(stationary: true, latitude: row["lat"], longitude: row["lon"], since: row["since"])
            }
            let wantedMotion = motion.flatMap { $0.stationary ? $0 : nil }
            if storedMotion != wantedMotion {
                try db.executeCached(sql: "DELETE FROM motion")
                if let wantedMotion {
                    try db.executeCached(
                        sql: "INSERT INTO motion (id, lat, lon, since) VALUES (1, ?, ?, ?)",
                        arguments: [wantedMotion.latitude, wantedMotion.longitude, wantedMotion.since])
                }
            }
            if case .some(let latch) = alarm { try AlarmSchema.write(latch, in: db) }
            try track?.write(db)
            // Delivered marks waiting in memory ride on this commit: their pages are mostly
            // the ones the new outbox rows touch.
            try writeDeliveredMarks(db)
            return fresh
        }
    }

    /// The stop saved by the last run, for `EventEngine.restoreMotion`.
    public func motionState() throws -> MotionRecord? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT lat, lon, since FROM motion WHERE id = 1").map { row in
                MotionRecord(stationary: true, latitude: row["lat"], longitude: row["lon"], since: row["since"])
            }
        }
    }

    /// The event log, oldest first (the JSON lines as printed).
    public func eventLog() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT json FROM event ORDER BY seq") }
    }
}

/// A fence state row as stored, to tell whether a commit must rewrite it.
struct StoredFenceState: Equatable {
    var geometryHash: Int64?
    var enterTime: Int64?
    var dwellFired: Bool?
    var exitDelaySince: Int64?
}

/// A store that cannot be opened or written: names the file.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// Opening is the user's path (a folder that cannot be made, a file that is not a database);
    /// a failure in use is the world's (a full disk, a file removed under the run).
    public enum Stage: Sendable {
        case opening, use
    }

    public let path: String
    public let problem: StoreProblem
    public let stage: Stage
    public var description: String { "state file '\(path)': \(problem.text)" }

    public init(path: String, problem: StoreProblem, stage: Stage = .opening) {
        self.path = path
        self.problem = problem
        self.stage = stage
    }
}

/// An outbox target (a webhook URL, a broker) and what its rows carry: the event's JSON, and the
/// OwnTracks transition when its sink publishes one with the event.
public struct OutboxTarget {
    public let name: String
    public let payload: (OutgoingEvent, FenceSet) -> OutboxPayload

    public init(
        name: String,
        payload: @escaping (OutgoingEvent, FenceSet) -> OutboxPayload = { event, _ in OutboxPayload(body: event.json) }
    ) {
        self.name = name
        self.payload = payload
    }
}
