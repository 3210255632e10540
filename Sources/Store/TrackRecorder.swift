import Events
import Fences
import Foundation
import GRDB
import NMEA
import Presentation

/// Keeps the track and the odometer of docs/report.md in the state file, on the engine thread.
///
/// The engine must never wait on the disk for this, and an SD card must not be worn by it: rows
/// (one a second at most) are buffered and written together every `flushInterval` seconds of wall
/// time (or every 256 rows in a fast replay), and old rows are pruned a small batch per write, so a
/// week of track to drop never becomes one long transaction. A `kill -9` or a power cut loses at
/// most the last `flushInterval` seconds of track (docs/running.md). An event's commit, synced to
/// storage anyway, carries the rows buffered by then once half the interval has passed
/// (`batchForEventCommit`).
public final class TrackRecorder {
    public struct Settings: Sendable {
        /// Days of track kept (`--keep-days`), counted back from the newest fix.
        public var keepDays = 7.0
        /// Fixes with a worse accuracy estimate are not usable (docs/events.md `--max-accuracy`).
        public var maxAccuracy = 100.0
        /// Seconds of wall time between writes: the track a crash can lose. Each write also
        /// stamps the run as alive for `status`, whose window must stay longer than this.
        public var flushInterval = defaultFlushInterval
        /// A minute: every write costs an SD card two or three 4 KB pages of WAL, and the WAL
        /// index's pages again when the kernel writes them back, 30 s after a commit dirtied them;
        /// at 30 s a run wrote about a fifth more an hour (docs/performance.md, "Live cost").
        public static let defaultFlushInterval = 60.0
        /// Whose days the odometer counts: "today" ends at the user's midnight, not UTC's.
        public var calendar = LocalCalendar.utc
        public init() {}
    }

    private let store: StateStore
    private let settings: Settings
    private var rows: [TrackPoint] = []
    private var odometer: [Int64: Double] = [:]
    /// The last usable fix recorded, and when it arrived on the wall clock (ms since 1970).
    public private(set) var latest: TrackPoint?
    public private(set) var latestWall: Int64 = 0
    /// Today's odometer as the run counts it (the file's number when the day's first step was
    /// counted, plus every step since), for a running run's live status.
    public private(set) var odometerToday: (day: Int64, metres: Double)?
    private var lastRecorded: Int64?
    private var odometerRule = Odometer()
    private var lastWrite: Int64 = 0
    /// The local day the last step fell on, and its span: most fixes fall on the same day, and
    /// need no look-up of the zone.
    private var currentDay: (key: Int64, span: Range<Int64>)?

    public init(store: StateStore, settings: Settings) {
        self.store = store
        self.settings = settings
    }

    /// Fixes the run did not believe (`FixPlausibility`), for `status`; written with the track.
    public var ignoredFixes = 0

    /// A fix the engine processed. Unusable fixes (no time, poor accuracy) are not kept.
    /// - Parameter afterJump: the receiver jumped to this fix (a confirmed jump): the odometer
    ///   starts again from here instead of counting the way nobody drove.
    public func record(_ fix: Fix, afterJump: Bool = false) throws {
        guard let time = fix.time, (fix.accuracy ?? 0) <= settings.maxAccuracy else { return }
        let point = TrackPoint(fix, time: time.millisecondsSinceEpoch)
        latest = point
        latestWall = StateStore.wallClock()
        if afterJump { odometerRule.restart(at: point) } else { addDistance(to: point) }
        if lastRecorded.map({ point.time - $0 >= 1000 }) ?? true {
            rows.append(point)
            lastRecorded = point.time
        }
        if rows.count >= 256 { try flush() } else { try flushIfDue() }
    }

    /// Writes what is buffered (and the alive stamp) once `flushInterval` has passed since the
    /// last write; a timer calls it too, so that a run without fixes still says it is alive.
    public func flushIfDue() throws {
        if StateStore.wallClock() - lastWrite >= Int64(settings.flushInterval * 1000) { try flush() }
    }

    private func addDistance(to point: TrackPoint) {
        let step = odometerRule.add(point)
        guard step > 0 else { return }
        let day = dayKey(point.time)
        odometer[day, default: 0] += step
        if odometerToday?.day == day {
            odometerToday?.metres += step
        } else {
            // The file's number holds what was written; the buffer what was not (this step too).
            let written = (try? store.odometer(day: day)) ?? 0
            odometerToday = (day, written + (odometer[day] ?? 0))
        }
    }

    /// The odometer's key for the local day that holds `time`: that day's number since 1970.
    private func dayKey(_ time: Int64) -> Int64 {
        if let currentDay, currentDay.span.contains(time) { return currentDay.key }
        let date = settings.calendar.day(of: time)
        currentDay = (Int64(date.daysSinceEpoch), settings.calendar.span(of: date))
        return Int64(date.daysSinceEpoch)
    }

    /// Writes what is buffered: track rows, odometer, the last fix, and one batch of pruning.
    public func flush() throws {
        let batch = takeBatch()
        try store.database.write { db in
            try batch.write(db)
            // The outbox's waiting "delivered" marks go with the track (docs/performance.md).
            try store.writeDeliveredMarks(db)
        }
    }

    /// What is buffered, for an event's commit to carry, once half the interval has passed since
    /// the last write (nil before that, or with no rows): the commit and its sync to storage are
    /// paid for by the event anyway, while a write of its own later would dirty pages of its own.
    /// Not earlier than half the interval, so that each event's commit does not grow by the
    /// track's pages; the next write of its own is then a whole interval away.
    public func batchForEventCommit() -> TrackBatch? {
        guard !rows.isEmpty,
            StateStore.wallClock() - lastWrite >= Int64(settings.flushInterval * 500)
        else { return nil }
        return takeBatch()
    }

    /// Empties the buffers into a batch stamped now; the interval restarts from here.
    private func takeBatch() -> TrackBatch {
        lastWrite = StateStore.wallClock()
        let batch = TrackBatch(
            rows: rows, odometer: odometer, latest: latest, latestWall: latestWall, ignoredFixes: ignoredFixes,
            now: lastWrite,
            pruneBefore: latest.map { $0.time - Int64(settings.keepDays * 86_400_000) })
        rows.removeAll(keepingCapacity: true)
        odometer.removeAll()
        return batch
    }
}

/// What the last `run` said about itself and its receiver (docs/report.md `status`).
public struct ReceiverRecord: Sendable, Equatable {
    public var device: String?
    /// "at 9600 baud", as the source said it.
    public var detail: String?
    public var fencesPath: String?
    /// Wall clock, ms since 1970.
    public var monitoringSince: Int64?
    public var updatedAt: Int64?
    public var stoppedAt: Int64?
    public var lastFixTime: Int64?
    public var lastFixWall: Int64?
    public var lastLat: Double?
    public var lastLon: Double?
    public var lastAccuracy: Double?
    /// How often the run writes the file, ms (nil: a file from before this was kept, 30 s then).
    public var writeInterval: Int64?
    /// The last run was a replay: its fix times are the capture's, not recent.
    public var replayed = false
    /// Fixes the last run did not believe: jumps no vehicle makes (nil: a file from before this
    /// was counted).
    public var ignoredFixes: Int?
}

extension StateStore {
    static func wallClock() -> Int64 { currentUTCTime().millisecondsSinceEpoch }

    /// A run starts monitoring: remembers its fence file, the wall-clock start, and how often it will
    /// write the file (its track write interval, in seconds), by which `status` judges it alive.
    /// - Parameters:
    ///   - targets: where it delivers (webhooks, brokers, track sync servers): `status` shows the
    ///     others the file still holds apart, as previous targets.
    ///   - replayed: a replay, whose fixes are from a capture's past.
    public func noteMonitoringStarted(
        fencesPath: String, writeInterval: Double = TrackRecorder.Settings.defaultFlushInterval,
        targets: [String] = [], replayed: Bool = false
    ) throws {
        let now = Self.wallClock()
        let path = fencesPath.isEmpty ? nil : URL(fileURLWithPath: fencesPath).standardizedFileURL.path
        try database.write { db in
            try db.execute(
                sql: """
                    UPDATE receiver SET fences_path = ?, monitoring_since = ?, updated_at = ?, stopped_at = NULL,
                    write_interval = ?, run_targets = ?, replayed = ?, ignored_fixes = 0 WHERE id = 1
                    """,
                arguments: [
                    path, now, now, Int64((writeInterval * 1000).rounded()), targets.joined(separator: "\n"), replayed,
                ])
        }
    }

    /// The device produced data ("at 9600 baud").
    public func noteDevice(_ device: String, detail: String?) throws {
        try database.write { db in
            try db.execute(
                sql: "UPDATE receiver SET device = ?, detail = ?, updated_at = ? WHERE id = 1",
                arguments: [device, detail, Self.wallClock()])
        }
    }

    public func noteStopped() throws {
        try database.write { db in
            try db.execute(sql: "UPDATE receiver SET stopped_at = ? WHERE id = 1", arguments: [Self.wallClock()])
        }
    }

    public func receiver() throws -> ReceiverRecord {
        try database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM receiver WHERE id = 1") else {
                return ReceiverRecord()
            }
            return ReceiverRecord(
                device: row["device"], detail: row["detail"], fencesPath: row["fences_path"],
                monitoringSince: row["monitoring_since"], updatedAt: row["updated_at"], stoppedAt: row["stopped_at"],
                lastFixTime: row["last_fix_time"], lastFixWall: row["last_fix_wall"], lastLat: row["last_lat"],
                lastLon: row["last_lon"], lastAccuracy: row["last_accuracy"], writeInterval: row["write_interval"],
                replayed: row["replayed"] ?? false, ignoredFixes: row["ignored_fixes"])
        }
    }

    /// Kept track points from `from` (ms, inclusive) on, oldest first.
    public func track(from: Int64 = .min) throws -> [TrackPoint] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM track WHERE time >= ? ORDER BY time", arguments: [from]).map {
                row in
                TrackPoint(
                    time: row["time"], lat: row["lat"], lon: row["lon"], altitude: row["altitude"], speed: row["speed"],
                    course: row["course"], accuracy: row["accuracy"], satellites: row["satellites"], hdop: row["hdop"])
            }
        }
    }

    /// Metres on local day `day` (the day's number since 1970, `CivilDate.daysSinceEpoch`), as the
    /// run's calendar counted it.
    public func odometer(day: Int64) throws -> Double {
        try database.read { db in
            try Double.fetchOne(db, sql: "SELECT metres FROM odometer WHERE day = ?", arguments: [day]) ?? 0
        }
    }

    /// The event log from `from` (ms of fix time) on, in log order, read back through the one
    /// decoder (`EventRecord(json:)`). A row that does not read back (from a newer version with
    /// kinds this one does not know) is left out.
    public func eventRecords(from: Int64) throws -> [EventRecord] {
        try database.read { db in
            try String.fetchAll(db, sql: "SELECT json FROM event WHERE time >= ? ORDER BY seq", arguments: [from])
        }.compactMap(EventRecord.init(json:))
    }

    /// The outbox targets (webhook URLs, brokers) that have rows.
    public func outboxTargets() throws -> [String] {
        try database.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT endpoint FROM outbox ORDER BY endpoint")
        }
    }
}
