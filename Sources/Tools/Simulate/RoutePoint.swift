import NMEA

/// One vertex of a route to simulate: a GPX track point or a GeoJSON LineString position.
public struct RoutePoint: Equatable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Metres; nil when the file gives none.
    public var altitude: Double?
    /// GPX `<time>`; nil for GeoJSON, which the simulator then paces at `--speed`.
    public var time: UTCTime?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, time: UTCTime? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.time = time
    }

    /// The same place without its time (a timed track walked at `--speed`).
    var withoutTime: RoutePoint { RoutePoint(latitude: latitude, longitude: longitude, altitude: altitude) }
}

/// A position the simulated receiver reports for one epoch.
public struct SimulatedFix: Equatable, Sendable {
    public var time: UTCTime
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double?
    /// m/s.
    public var speed: Double
    /// Degrees true.
    public var track: Double
}

/// Parses `2026-02-03T10:15:02Z`, `2026-02-03T10:15:02.250Z` and `...+02:00` (ISO 8601 as GPX
/// writes it) into UTC.
public func parseISOTime(_ text: String) -> UTCTime? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x20,
        bytes[13] == 0x3A, bytes[16] == 0x3A
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] - 0x30)
        }
        return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
        let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
        hour < 24, minute < 60, second < 61
    else { return nil }
    let date = CivilDate(year: year, month: month, day: day)
    guard date.isValid else { return nil }
    var index = 19
    var milliseconds = 0
    if index < bytes.count, bytes[index] == 0x2E {
        index += 1
        var scale = 100
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            milliseconds += Int(bytes[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
    }
    var offsetMinutes = 0
    if index < bytes.count {
        switch bytes[index] {
        case 0x5A where index + 1 == bytes.count: break
        case 0x2B, 0x2D:
            guard index + 6 == bytes.count, let hours = number(index + 1..<index + 3),
                let minutes = number(index + 4..<index + 6)
            else { return nil }
            offsetMinutes = (hours * 60 + minutes) * (bytes[index] == 0x2D ? -1 : 1)
        default: return nil
        }
    }
    let timeOfDay = TimeOfDay(milliseconds: ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + milliseconds)
    // UTCTime adds the time of day to midnight, so an offset that crosses midnight still works.
    return UTCTime(
        millisecondsSinceEpoch: UTCTime(date: date, timeOfDay: TimeOfDay(milliseconds: 0)).millisecondsSinceEpoch
            + Int64(timeOfDay.milliseconds))
}
