import NMEA
import Platform

/// The zone in which people read times and count days (docs/running.md, "Time and units"): console
/// lines, `status`, `visits` and the report show local time with its offset, and "today" (the
/// odometer) and "this month" (visits) are the local day and month. Machines (JSON, MQTT,
/// webhooks) keep UTC. Chosen once from `--timezone`, `--utc`, `TZ` or `/etc/localtime`, and
/// handed down as this value: no module reads the zone by itself. The offsets are the zone's
/// `ZoneOffsets`, the same table a fence's `timezone` reads.
public struct LocalCalendar: Sendable, Equatable {
    public let zone: ZoneOffsets
    /// UTC asked for by name (`--utc`): times end in `Z` rather than `+00:00`.
    public let isUTC: Bool

    private init(zone: ZoneOffsets, isUTC: Bool) {
        self.zone = zone
        self.isUTC = isUTC
    }

    public static let utc = LocalCalendar(zone: .utc, isUTC: true)

    /// The system's zone: `TZ` when it names a zone or a zone's file, else `/etc/localtime`: the
    /// zone it links to, or the table it holds when it is a copy (UTC when neither says).
    public static func system() -> LocalCalendar {
        if let value = environmentValue("TZ"), let calendar = fromTZ(value) { return calendar }
        return zone(ofFile: localTimeFile) ?? .utc
    }

    /// The zone a `TZ` value names as the C library reads it: `Europe/Berlin`, the same after a
    /// colon (`:Europe/Berlin`), or a zone's file by its absolute path (`:/etc/localtime`, the
    /// value containers and systemd services often carry). Nil for anything else (a POSIX rule
    /// such as `CET-1CEST`), which leaves the choice to `/etc/localtime`.
    static func fromTZ(_ value: String) -> LocalCalendar? {
        let name = value.hasPrefix(":") ? String(value.dropFirst()) : value
        return name.hasPrefix("/") ? zone(ofFile: name) : LocalCalendar(named: name)
    }

    /// The zone of a TZif file at `path`: the zone it links to by name, else the table it holds.
    static func zone(ofFile path: String) -> LocalCalendar? {
        if let target = symlinkTarget(path) { return zoneName(linkedTo: target).flatMap { LocalCalendar(named: $0) } }
        if let name = zoneName(linkedTo: path), let calendar = LocalCalendar(named: name) { return calendar }
        guard let table = try? ZoneOffsets(file: path, name: "localtime") else { return nil }
        return table.isUTC ? .utc : LocalCalendar(zone: table, isUTC: false)
    }

    /// The zone of IANA name `name` (`America/New_York`); nil for a name the tz database lacks.
    public init?(named name: String) {
        guard !name.isEmpty, let zone = try? ZoneOffsets(named: name) else { return nil }
        self.init(zone: zone, isUTC: Self.utcNames.contains(name))
    }

    /// The names of UTC itself, whose times end in `Z`.
    static let utcNames: Set<String> = [
        "UTC", "Etc/UTC", "UCT", "Etc/UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu", "GMT", "Etc/GMT", "GMT0",
        "Etc/GMT0", "Greenwich", "Etc/Greenwich",
    ]

    static let localTimeFile = "/etc/localtime"

    /// `Europe/Berlin` for a link to `/usr/share/zoneinfo/Europe/Berlin` (or `../usr/share/zoneinfo/...`):
    /// the path after its last `zoneinfo` folder.
    static func zoneName(linkedTo target: String) -> String? {
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard let folder = parts.lastIndex(of: "zoneinfo") else { return nil }
        let name = parts[(folder + 1)...].joined(separator: "/")
        return name.isEmpty ? nil : name
    }

    public static func == (lhs: LocalCalendar, rhs: LocalCalendar) -> Bool {
        lhs.zone.name == rhs.zone.name && lhs.isUTC == rhs.isUTC
    }

    /// Seconds east of UTC at `milliseconds` since the epoch.
    public func offsetSeconds(at milliseconds: Int64) -> Int {
        isUTC ? 0 : Int(zone.offset(atSeconds: floorDivide(milliseconds, 1000)))
    }

    /// The local calendar day that holds the instant.
    public func day(of milliseconds: Int64) -> CivilDate {
        let local = milliseconds + Int64(offsetSeconds(at: milliseconds)) * 1000
        return CivilDate(daysSinceEpoch: Int(floorDivide(local, Int64(TimeOfDay.millisecondsPerDay))))
    }

    /// The first instant (ms since 1970) of local day `date`: its midnight, or the first moment
    /// after a change of offset that skipped it.
    public func start(of date: CivilDate) -> Int64 {
        let midnight = Int64(date.daysSinceEpoch) * 86_400
        return (isUTC ? midnight : zone.firstInstant(atOrAfterLocal: midnight)) * 1000
    }

    /// The local day's span, `[start, end)` in ms since 1970 (23 or 25 hours on the days the clocks change).
    public func span(of date: CivilDate) -> Range<Int64> {
        start(of: date)..<start(of: CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1))
    }

    /// The local month's span, `[start, end)` in ms since 1970.
    public func span(year: Int, month: Int) -> Range<Int64> {
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        return start(
            of: CivilDate(year: year, month: month, day: 1))..<start(
                of: CivilDate(year: next.0, month: next.1, day: 1))
    }

    /// `2026-02-28 20:30:00-05:00` (`Z` with `--utc`): the time as people read it, with its offset.
    public func text(_ milliseconds: Int64) -> String {
        let offset = offsetSeconds(at: milliseconds)
        let local = UTCTime(millisecondsSinceEpoch: milliseconds + Int64(offset) * 1000)
        return local.date.description + " " + clock(local) + offsetText(offset)
    }

    public func text(_ time: UTCTime) -> String { text(time.millisecondsSinceEpoch) }

    /// `20:30:00`: the local clock alone, for lines that show the date elsewhere.
    public func clockText(_ milliseconds: Int64) -> String {
        clock(UTCTime(millisecondsSinceEpoch: milliseconds + Int64(offsetSeconds(at: milliseconds)) * 1000))
    }

    /// `-05:00`, `+05:45`, `Z`.
    public func offsetText(_ seconds: Int) -> String {
        if isUTC { return "Z" }
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + pad(minutes / 60, 2) + ":" + pad(minutes % 60, 2)
    }

    /// The zone as a person names it: `America/New_York`, or `UTC`.
    public var name: String { isUTC ? "UTC" : zone.name }

    private func clock(_ local: UTCTime) -> String {
        let seconds = Int(floorDivide(local.millisecondsSinceEpoch, 1000) % 86_400)
        return pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
    }
}
