import Foundation
import GRDB
import NMEA
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// The track, odometer and receiver record of docs/report.md, and the v1 -> v2 migration, on real
/// SQLite files.
@Suite struct TrackTests {
    static let start: Int64 = 1_770_113_700_000

    func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-track-\(UUID().uuidString).sqlite").path
    }

    func fix(_ milliseconds: Int64, east: Double, north: Double = 0, accuracy: Double = 4, speed: Double = 0) -> Fix {
        var point = Geodesy.destination(lat: 47.3769, lon: 8.5417, bearing: 90, distance: east)
        point = Geodesy.destination(lat: point.lat, lon: point.lon, bearing: 0, distance: north)
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: Self.start + milliseconds), timeOfDay: TimeOfDay(milliseconds: 0),
            latitude: point.lat, longitude: point.lon, speed: speed, mode: .threeD, satellitesUsed: 9,
            accuracy: accuracy)
    }

    @Test func atMostOneUsableFixPerSecond() throws {
        let store = try StateStore(path: temporaryPath())
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        // 10 Hz for 5 s: one row for each of the seconds 0 ... 4.
        for tenth in 0..<50 { try recorder.record(fix(Int64(tenth) * 100, east: Double(tenth))) }
        // A fix worse than --max-accuracy (100 m) is not usable and not kept.
        try recorder.record(fix(6000, east: 60, accuracy: 150))
        try recorder.flush()
        let track = try store.track()
        #expect(track.map(\.time) == (0..<5).map { Self.start + Int64($0) * 1000 })
        #expect(track.allSatisfy { $0.satellites == 9 && $0.accuracy == 4 })
        let receiver = try store.receiver()
        #expect(receiver.lastFixTime == Self.start + 4900, "the last usable fix, kept or not")
    }

    /// The track waits in memory between writes (`flushInterval`, 30 s of wall time): a second of
    /// 10 Hz fixes right after a write reaches the file only with the next one, odometer included.
    @Test func trackWaitsInMemoryBetweenWrites() throws {
        let store = try StateStore(path: temporaryPath())
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        try recorder.record(fix(0, east: 0))
        #expect(try store.track().count == 1, "the first fix is written at once")
        for tenth in 1...50 { try recorder.record(fix(Int64(tenth) * 100, east: Double(tenth) * 10)) }
        try recorder.flushIfDue()
        #expect(try store.track().count == 1, "nothing more before the interval")
        #expect(try store.odometer(day: Self.start / 86_400_000) == 0)
        try recorder.flush()
        #expect(try store.track().map(\.time) == (0...5).map { Self.start + Int64($0) * 1000 })
        #expect(abs(try store.odometer(day: Self.start / 86_400_000) - 500) < 1)
    }

    /// An event's commit carries the buffered track once half the interval has passed (its sync to
    /// storage is paid for anyway), not before; the interval then starts again from it.
    @Test func anEventCommitCarriesTheTrackOnceHalfDue() throws {
        let store = try StateStore(path: temporaryPath())
        var settings = TrackRecorder.Settings()
        settings.flushInterval = 4
        let recorder = TrackRecorder(store: store, settings: settings)
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        try recorder.record(fix(0, east: 0))
        for tenth in 1...20 { try recorder.record(fix(Int64(tenth) * 100, east: Double(tenth) * 10)) }
        #expect(recorder.batchForEventCommit() == nil, "less than half the interval since the first write")
        usleep(2_100_000)  // past half the interval of the wall clock: the time is the case
        let batch = try #require(recorder.batchForEventCommit())
        let event = OutgoingEvent(
            GeofenceEvent(.stationary, time: UTCTime(millisecondsSinceEpoch: Self.start + 2000)), fences: fences)
        try store.commit(events: [event], insideStates: [], fences: fences, track: batch)
        #expect(try store.track().map(\.time) == (0...2).map { Self.start + Int64($0) * 1000 })
        #expect(abs(try store.odometer(day: Self.start / 86_400_000) - 200) < 1)
        #expect(try store.receiver().lastFixTime == Self.start + 2000)
        try recorder.record(fix(3000, east: 300))
        #expect(recorder.batchForEventCommit() == nil, "the interval starts again from the event's commit")
        try recorder.flushIfDue()
        #expect(try store.track().count == 3)
    }

    /// 200 fixes jittering up to 3 m around a parked spot with 4 m accuracy add nothing; then
    /// 1000 m east at 10 m a fix add 1000 m (each 10 m step is beyond the accuracy).
    @Test func odometerIgnoresJitterBelowTheAccuracy() throws {
        let store = try StateStore(path: temporaryPath())
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        var random = SystemRandomNumberGenerator()
        for second in 0..<200 {
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let radius = Double.random(in: 0...1.5, using: &random)
            try recorder.record(fix(Int64(second) * 1000, east: radius * cos(angle), north: radius * sin(angle)))
        }
        try recorder.flush()
        let day = (Self.start) / 86_400_000
        #expect(try store.odometer(day: day) == 0)
        for step in 1...100 { try recorder.record(fix(Int64(200 + step) * 1000, east: Double(step) * 10, speed: 10)) }
        try recorder.flush()
        let metres = try store.odometer(day: day)
        // The first step starts from the anchor (within 1.5 m of the origin).
        #expect(abs(metres - 1000) < 2, "\(metres)")
    }

    /// The odometer's flat-earth shortcut turns away only the steps the haversine formula would:
    /// random walks of 0.1-40 m steps, accuracies of 1-12 m, at the equator, mid latitudes, near
    /// a pole and across the antimeridian, step by step against the formula alone.
    @Test func odometerShortcutAgreesWithTheFormulaEverywhere() {
        var random = SystemRandomNumberGenerator()
        for (lat, lon) in [(0.0, 10.0), (47.38, 8.54), (-63.0, -57.0), (84.99, 30.0), (89.999, 0.0), (10.0, 179.9999)] {
            var odometer = Odometer()
            var anchor: (lat: Double, lon: Double)?
            var position = (lat: lat, lon: lon)
            for index in 0..<4000 {
                let moved = Geodesy.destination(
                    lat: position.lat, lon: position.lon, bearing: Double.random(in: 0..<360, using: &random),
                    distance: Double.random(in: 0.1...40, using: &random))
                position = (moved.lat, moved.lon > 180 ? moved.lon - 360 : moved.lon)
                let accuracy = Double.random(in: 1...12, using: &random)
                let point = TrackPoint(
                    time: Int64(index) * 100, lat: position.lat, lon: position.lon, accuracy: accuracy)
                var expected = 0.0
                if let from = anchor {
                    let step = Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: point.lat, lon2: point.lon)
                    if step > max(accuracy, 1) {
                        expected = step
                        anchor = (point.lat, point.lon)
                    }
                } else {
                    anchor = (point.lat, point.lon)
                }
                let added = odometer.add(point)
                #expect(added == expected, "at \(lat), \(lon), step \(index)")
                if added != expected { return }
            }
        }
    }

    @Test func odometerIsPerUTCDay() throws {
        let store = try StateStore(path: temporaryPath())
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        let midnight = (Self.start / 86_400_000 + 1) * 86_400_000 - Self.start
        // 10 fixes 20 m apart, 5 before midnight and 5 after: 4 steps on the first day, 5 on the second.
        for index in 0..<10 {
            try recorder.record(fix(midnight - 5000 + Int64(index) * 1000, east: Double(index) * 20, speed: 20))
        }
        try recorder.flush()
        let first = (Self.start + midnight - 1) / 86_400_000
        #expect(abs(try store.odometer(day: first) - 80) < 0.1)
        #expect(abs(try store.odometer(day: first + 1) - 100) < 0.1)
    }

    /// Retention counts back from the newest fix, and each write deletes at most 500 old rows,
    /// so a week of track to drop never blocks the engine in one long transaction.
    @Test func pruningIsBatched() throws {
        let store = try StateStore(path: temporaryPath())
        var settings = TrackRecorder.Settings()
        settings.keepDays = 1
        let recorder = TrackRecorder(store: store, settings: settings)
        for second in 0..<1200 { try recorder.record(fix(Int64(second) * 1000, east: 0)) }
        try recorder.flush()
        #expect(try store.track().count == 1200)
        let twoDays: Int64 = 2 * 86_400_000
        try recorder.record(fix(twoDays, east: 0))
        try recorder.flush()
        #expect(try store.track().count == 700 + 1)
        try recorder.flush()
        #expect(try store.track().count == 200 + 1)
        try recorder.flush()
        #expect(try store.track().map(\.time) == [Self.start + twoDays])
    }

    @Test func receiverRecordForStatus() throws {
        let store = try StateStore(path: temporaryPath())
        try store.noteMonitoringStarted(fencesPath: "fences.geojson")
        try store.noteDevice("/dev/ttyACM0", detail: "at 9600 baud")
        var record = try store.receiver()
        #expect(record.device == "/dev/ttyACM0" && record.detail == "at 9600 baud")
        #expect(record.fencesPath == FileManager.default.currentDirectoryPath + "/fences.geojson", "kept absolute")
        #expect(record.monitoringSince != nil && record.stoppedAt == nil)
        try store.noteStopped()
        record = try store.receiver()
        #expect(record.stoppedAt != nil)
    }

    /// A state file written by the previous release (schema v1, as in git a99d43f, migrated by
    /// GRDB exactly as that release did) opens, keeps everything, and gains the v2 tables; an MQTT
    /// row that carried its OwnTracks transition on a second line of the body is split (v3).
    @Test func versionOneFileMigrates() throws {
        let path = temporaryPath()
        do {
            let queue = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in try db.execute(sql: Self.versionOneSchema) }
            try migrator.migrate(queue)
            try queue.write { db in
                try db.execute(sql: #"INSERT INTO fence_state VALUES ('"gym"', 42, 1, 1770113741000, 1)"#)
                try db.execute(
                    sql:
                        #"INSERT INTO event (id, type, time, fence_id, json) VALUES ('abc', 'enter', 1770113741000, '"gym"', '{"id":"abc"}')"#
                )
                try db.execute(
                    sql: #"INSERT INTO visit VALUES ('def', '"gym"', 'Gym', 1770113741000, 1770114989000, 1248)"#)
                try db.execute(
                    sql: #"INSERT INTO outbox (endpoint, event_id, body) VALUES ('http://127.0.0.1:9/', 'abc', '{}')"#)
                try db.execute(
                    sql: "INSERT INTO outbox (endpoint, event_id, body) VALUES ('mqtt://b', 'abc', ?)",
                    arguments: ["{\"id\":\"abc\"}\n{\"_type\":\"transition\"}"])
            }
        }
        let store = try StateStore(path: path)
        let applied = try store.database.read {
            try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        }
        // Every migration the release has, the first four and those added since (in any order of names).
        #expect(applied == StateStore.migrator.migrations.sorted())
        #expect(
            Set([
                "v1", "v2", "v3", "v4", "v5-fewer-pages", "layer-circles-v1", "fences-from-broker",
                LeanerIndexesSchema.migrationName,
            ]).isSubset(of: applied))
        // The outbox keeps only its pending index; a visit is one b-tree (its key, no index).
        let indexes = try store.database.read { db in
            (
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('outbox')"),
                try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('visit') WHERE origin != 'pk'")
            )
        }
        #expect(indexes.0 == ["outbox_pending"] && indexes.1.isEmpty, "\(indexes)")
        let webhookRow = try #require(try store.nextUndelivered(target: "http://127.0.0.1:9/"))
        #expect(webhookRow.body == "{}" && webhookRow.transition == nil)
        let mqttRow = try #require(try store.nextUndelivered(target: "mqtt://b"))
        #expect(mqttRow.body == #"{"id":"abc"}"# && mqttRow.transition == #"{"_type":"transition"}"#)
        #expect(
            try store.fenceStates() == [
                FenceStateRecord(
                    fenceID: .string("gym"), geometryHash: 42, inside: true, enterTime: 1_770_113_741_000,
                    dwellFired: true)
            ])
        #expect(try store.eventLog() == [#"{"id":"abc"}"#])
        #expect(try store.visitReport(year: 2026, month: 2).fences.first?.count == 1)
        #expect(try store.counters(target: "http://127.0.0.1:9/").pending == 1)
        #expect(try store.receiver() == ReceiverRecord())
        let recorder = TrackRecorder(store: store, settings: TrackRecorder.Settings())
        try recorder.record(fix(0, east: 0))
        try recorder.flush()
        #expect(try store.track().count == 1)
        // Opening it again runs nothing twice.
        _ = try StateStore(path: path)
    }

    /// The v1 schema as the previous release created it (git show a99d43f:Sources/Store/StateStore.swift).
    static let versionOneSchema = """
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
        """
}

@Suite struct MotionPersistenceTests {
    /// The stop is committed with the events of its fix, and cleared with the events that end it.
    @Test func stopTravelsWithTheEvents() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-motion-\(UUID().uuidString).sqlite"
        ).path
        let fences = try FenceSet.parse(StateStoreTests.fencesText)
        let store = try StateStore(path: path)
        let stop = MotionRecord(stationary: true, latitude: 47.1, longitude: 8.2, since: 1_770_113_700_000)
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_820_000)
        let stationary = OutgoingEvent(GeofenceEvent(.stationary, time: time), fences: fences)
        try store.commit(events: [stationary], insideStates: [], fences: fences, motion: stop)
        #expect(try StateStore(path: path).motionState() == stop)
        let moving = OutgoingEvent(
            GeofenceEvent(.moving, time: UTCTime(millisecondsSinceEpoch: 1_770_113_900_000)), fences: fences)
        try store.commit(events: [moving], insideStates: [], fences: fences, motion: nil)
        #expect(try store.motionState() == nil)
    }
}
