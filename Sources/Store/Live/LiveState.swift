import Events
import JSONInput
import JSONOutput
import NMEA

/// What a running `run` knows now and has not necessarily written to the state file yet: its
/// last believed fix (the file has it only at each track write, every 60 s), today's odometer,
/// the distance to the anchor and how many events it committed. `status`, `status --watch` and
/// the web page take it over the state file's values while the run answers (docs/running.md,
/// "Status of a running run"); what the file has with every commit (fence states, the alarm,
/// events) is still read from the file.
public struct LiveState: Sendable, Equatable {
    /// Wall clock when the run last changed it, ms since 1970.
    public var updatedAt: Int64
    /// The run's start on the wall clock, ms since 1970.
    public var monitoringSince: Int64
    /// The last fix the run believed, with its time.
    public var fix: TrackPoint?
    /// GGA's fix quality of `fix` (1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 dead reckoning).
    public var fixQuality: Int?
    /// Wall clock when `fix` arrived, ms since 1970.
    public var fixWall: Int64?
    /// Metres counted today (the user's day), written and not yet written; nil before the first
    /// counted step of the day, when the file's number is today's.
    public var odometerToday: Double?
    /// The user's day `odometerToday` counts, as days since 1970 (`LocalCalendar`'s day keys).
    public var odometerDay: Int64?
    /// Metres from the anchor at the last usable fix, and the largest so far.
    public var anchorDistance: Double?
    public var anchorMaxDistance: Double?
    /// Fixes the run did not believe (`FixPlausibility`).
    public var ignoredFixes: Int
    /// Events committed since the run started: a reader that saw fewer reads the new ones.
    public var events: Int
    /// The alarm's standing after the last alarm event (nil: the run keeps no alarm).
    public var alarm: AlarmStatus?

    public init(monitoringSince: Int64) {
        self.monitoringSince = monitoringSince
        updatedAt = monitoringSince
        ignoredFixes = 0
        events = 0
    }

    /// One JSON object: times as UTC ISO 8601, distances in metres, speed in m/s.
    public var json: String {
        var line = JSONLine()
        line.add("updated_at", UTCTime(millisecondsSinceEpoch: updatedAt).description)
        line.add("monitoring_since", UTCTime(millisecondsSinceEpoch: monitoringSince).description)
        if let fix {
            var object = JSONLine()
            object.add("time", UTCTime(millisecondsSinceEpoch: fix.time).description)
            object.add("lat", fix.lat, decimals: JSONPrecision.coordinate)
            object.add("lon", fix.lon, decimals: JSONPrecision.coordinate)
            object.add("altitude", fix.altitude, decimals: 1)
            object.add("speed", fix.speed, decimals: 2)
            object.add("course", fix.course, decimals: 1)
            object.add("accuracy", fix.accuracy, decimals: 1)
            object.add("satellites", fix.satellites)
            object.add("hdop", fix.hdop, decimals: 2)
            object.add("quality", fixQuality)
            object.add("wall_time", fixWall.map { UTCTime(millisecondsSinceEpoch: $0).description })
            line.addRaw("fix", json: object.string)
        }
        line.add("odometer_today", odometerToday, decimals: 1)
        line.add("odometer_day", odometerDay.map { Int($0) })
        line.add("anchor_distance", anchorDistance, decimals: 1)
        line.add("anchor_max_distance", anchorMaxDistance, decimals: 1)
        line.add("ignored_fixes", ignoredFixes)
        line.add("events", events)
        line.add("alarm", alarm?.rawValue)
        return line.string
    }

    /// Reads what `json` wrote; nil for anything else (a run of another version may answer).
    public init?(json bytes: [UInt8]) {
        var state = LiveState(monitoringSince: 0)
        var monitoring: Int64?
        var updated: Int64?
        let parsed: Bool = bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            do throws(JSONSyntaxError) {
                try scanner.object { (scanner, key) throws(JSONSyntaxError) in
                    switch key {
                    case "updated_at": updated = try Self.time(&scanner)
                    case "monitoring_since": monitoring = try Self.time(&scanner)
                    case "fix": (state.fix, state.fixQuality, state.fixWall) = try Self.fix(&scanner)
                    case "odometer_today": state.odometerToday = try scanner.optionalNumber()
                    case "odometer_day": state.odometerDay = try Self.integer(&scanner).map { Int64($0) }
                    case "anchor_distance": state.anchorDistance = try scanner.optionalNumber()
                    case "anchor_max_distance": state.anchorMaxDistance = try scanner.optionalNumber()
                    case "ignored_fixes": state.ignoredFixes = try Self.integer(&scanner) ?? 0
                    case "events": state.events = try Self.integer(&scanner) ?? 0
                    case "alarm": state.alarm = try scanner.optionalString().flatMap(AlarmStatus.init(rawValue:))
                    default: try scanner.skipValue()
                    }
                }
                scanner.skipWhitespace()
                try scanner.expectEnd()
                return true
            } catch {
                return false
            }
        }
        guard parsed, let monitoring, let updated else { return nil }
        state.monitoringSince = monitoring
        state.updatedAt = updated
        self = state
    }

    /// An integer or `null`.
    private static func integer(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Int? {
        scanner.consumeNull() ? nil : try scanner.integer()
    }

    private static func time(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Int64? {
        try scanner.optionalString().flatMap(UTCTime.init(iso:))?.millisecondsSinceEpoch
    }

    private static func fix(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> (TrackPoint?, Int?, Int64?) {
        var time: Int64?
        var lat: Double?
        var lon: Double?
        var point = TrackPoint(time: 0, lat: 0, lon: 0)
        var quality: Int?
        var wall: Int64?
        try scanner.object { (scanner, key) throws(JSONSyntaxError) in
            switch key {
            case "time": time = try Self.time(&scanner)
            case "lat": lat = try scanner.optionalNumber()
            case "lon": lon = try scanner.optionalNumber()
            case "altitude": point.altitude = try scanner.optionalNumber()
            case "speed": point.speed = try scanner.optionalNumber()
            case "course": point.course = try scanner.optionalNumber()
            case "accuracy": point.accuracy = try scanner.optionalNumber()
            case "satellites": point.satellites = try Self.integer(&scanner)
            case "hdop": point.hdop = try scanner.optionalNumber()
            case "quality": quality = try Self.integer(&scanner)
            case "wall_time": wall = try Self.time(&scanner)
            default: try scanner.skipValue()
            }
        }
        guard let time, let lat, let lon else { return (nil, quality, wall) }
        point.time = time
        point.lat = lat
        point.lon = lon
        return (point, quality, wall)
    }
}
