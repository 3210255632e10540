/// The tables of migration "v2" (docs/report.md).
enum TrackSchema {
    static let v2 = """
        CREATE TABLE track (
            time INTEGER PRIMARY KEY,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            altitude REAL,
            speed REAL,
            course REAL,
            accuracy REAL,
            satellites INTEGER,
            hdop REAL
        );
        CREATE TABLE odometer (
            day INTEGER PRIMARY KEY,
            metres REAL NOT NULL
        );
        CREATE TABLE receiver (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            device TEXT,
            detail TEXT,
            fences_path TEXT,
            monitoring_since INTEGER,
            updated_at INTEGER,
            stopped_at INTEGER,
            last_fix_time INTEGER,
            last_fix_wall INTEGER,
            last_lat REAL,
            last_lon REAL,
            last_accuracy REAL
        );
        INSERT INTO receiver (id) VALUES (1);
        CREATE TABLE motion (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            since INTEGER NOT NULL
        );
        """
}
