import NMEA

/// A feature's rule properties as written (docs/fences.md, "Rules"), gathered while its properties
/// object is read and checked once it is read whole: `timezone` may come after `active`.
struct FenceRuleText {
    var active: String?
    var timezone: String?
    var expires: String?
    var speedLimit: Double?
    var speedLimitKmh: Double?
    var clearance: Double?
}

extension GeoJSONLoader {
    /// Reads the value of `key` into `rules` when `key` is a rule property; false for other keys
    /// (nothing read).
    mutating func readRuleProperty(
        _ key: (start: Int, end: Int, escaped: Bool), into rules: inout FenceRuleText, pending: inout String?
    ) throws -> Bool {
        if scanner.spanEquals(key, "active") {
            rules.active = try ruleString("active", pending: &pending)
        } else if scanner.spanEquals(key, "timezone") {
            rules.timezone = try ruleString("timezone", pending: &pending)
        } else if scanner.spanEquals(key, "expires") {
            rules.expires = try ruleString("expires", pending: &pending)
        } else if scanner.spanEquals(key, "speed_limit") {
            rules.speedLimit = try setting("speed_limit", unit: "m/s", max: Limits.maxSpeed, pending: &pending)
        } else if scanner.spanEquals(key, "speed_limit_kmh") {
            rules.speedLimitKmh = try setting(
                "speed_limit_kmh", unit: "km/h", max: Limits.maxSpeed * 3.6, pending: &pending)
        } else if scanner.spanEquals(key, "clearance") {
            rules.clearance = try heightSetting("clearance", pending: &pending)
        } else {
            return false
        }
        return true
    }

    /// A height: a number of metres, or text in the forms signs use (`Height`).
    mutating func heightSetting(_ key: String, pending: inout String?) throws -> Double? {
        guard scanner.peek() == 0x22 else {
            return try setting(key, unit: "metres", max: Limits.maxMetres, pending: &pending)
        }
        let text = try scanner.string(scanner.stringSpan())
        guard let metres = Height.metres(text), metres <= Limits.maxMetres else {
            pending = pending ?? "\(key) '\(HumanText.printable(text))' is not \(Height.forms)"
            return nil
        }
        return metres
    }

    mutating func ruleString(_ key: String, pending: inout String?) throws -> String? {
        let start = scanner.pos
        if scanner.consumeNull() { return nil }
        if scanner.peek() == 0x22 { return try scanner.string(scanner.stringSpan()) }
        try scanner.skipValue()
        pending = pending ?? "\(key) \(snippet(start)) is not a string"
        return nil
    }
}

/// What a file's rules share: a million fences naming `Europe/Berlin` read its zone file once and
/// share one table (and one parsed `active` per distinct text), instead of a copy each.
final class FenceRuleCache {
    var zones: [String: ZoneOffsets] = [:]
    var hours: [String: OpeningHours] = [:]

    func zone(_ name: String) throws(ZoneError) -> ZoneOffsets {
        if let zone = zones[name] { return zone }
        let zone = try ZoneOffsets(named: name)
        zones[name] = zone
        return zone
    }

    func openingHours(_ text: String) throws(OpeningHoursError) -> OpeningHours {
        if let parsed = hours[text] { return parsed }
        let parsed = try OpeningHours(parsing: text)
        if hours.count < 4096 { hours[text] = parsed }
        return parsed
    }
}

extension FenceRuleText {
    /// The rules, or nil when there are none; a problem goes to `pending` (the first one wins).
    func resolved(cache: FenceRuleCache, pending: inout String?) -> FenceRules? {
        var rules = FenceRules()
        var zone = ZoneOffsets.utc
        if let timezone {
            do throws(ZoneError) {
                zone = try cache.zone(timezone)
            } catch {
                pending = pending ?? "timezone: \(error.reason)"
                return nil
            }
        }
        if let active {
            do throws(OpeningHoursError) {
                rules.active = ActiveSchedule(hours: try cache.openingHours(active), zone: zone)
            } catch {
                pending = pending ?? "active '\(active)': \(error.reason)"
                return nil
            }
        }
        if let expires {
            guard let instant = Self.instant(expires, zone: zone) else {
                pending =
                    pending ?? "expires '\(expires)' is not an ISO 8601 time like 2026-02-06T18:00:00Z "
                    + "(or with an offset, +01:00; without one, in the fence's timezone)"
                return nil
            }
            rules.expires = instant
        }
        if speedLimit != nil, speedLimitKmh != nil {
            pending = pending ?? "speed_limit and speed_limit_kmh: give one of them"
            return nil
        }
        rules.speedLimit = speedLimit ?? speedLimitKmh.map { $0 / 3.6 }
        rules.clearance = clearance
        return rules == FenceRules() ? nil : rules
    }

    /// `2026-02-06T18:00:00Z`, `2026-02-06T19:00+01:00`, `2026-02-06 18:00:00.5`: milliseconds
    /// since the epoch. Without `Z` or an offset the time is read in `zone`.
    static func instant(_ text: String, zone: ZoneOffsets) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let date = CivilDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)), date.isValid
        else { return nil }
        var clockEnd = bytes.count
        var offsetSeconds: Int64?
        if bytes.last == UInt8(ascii: "Z") {
            clockEnd -= 1
            offsetSeconds = 0
        } else if let sign = bytes[11...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            let digits = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int64(String(decoding: digits, as: UTF8.self)), value % 100 < 60, value / 100 < 24
            else { return nil }
            let magnitude = (value / 100) * 3600 + (value % 100) * 60
            offsetSeconds = bytes[sign] == UInt8(ascii: "-") ? -magnitude : magnitude
            clockEnd = sign
        }
        let clock = String(decoding: bytes[11..<clockEnd], as: UTF8.self).split(
            separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock[0].count == 2, clock[1].count == 2,
            let hours = Int(clock[0]), let minutes = Int(clock[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        var seconds = 0.0
        if clock.count == 3 {
            guard clock[2].count >= 2, let value = Double(clock[2]), value >= 0, value < 60 else { return nil }
            seconds = value
        }
        let milliseconds = (hours * 3600 + minutes * 60) * 1000 + Int((seconds * 1000).rounded())
        let local = UTCTime(date: date, timeOfDay: TimeOfDay(milliseconds: milliseconds)).millisecondsSinceEpoch
        if let offsetSeconds { return local - offsetSeconds * 1000 }
        // Local time in the zone: its offset at the guessed instant, checked once more (a time
        // near a change of offset).
        let guess = local / 1000 - Int64(zone.offset(atSeconds: local / 1000))
        let offset = Int64(zone.offset(atSeconds: guess))
        return local - offset * 1000
    }
}
