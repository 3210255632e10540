import NMEA

/// The report classes of gpsd's JSON protocol (gpsd_json(5)) that a geofence client acts on.
public enum GpsdClass: Sendable, Equatable {
    case tpv, sky, device, devices, version, watch, error
    /// GST, ATT, AIS, PPS, TOFF, ...: valid, not needed here.
    case other
}

/// A TPV (time-position-velocity) report, as numbers; absent fields are nil.
public struct GpsdTPV: Sendable, Equatable {
    /// 0 unknown, 1 no fix, 2 2D, 3 3D.
    public var mode = 0
    /// gpsd's fix status (2 DGPS, 3 RTK fixed, 4 RTK float, 5 dead reckoning, ...); nil: plain GPS.
    public var status: Int?
    public var time: UTCTime?
    public var latitude: Double?
    public var longitude: Double?
    public var altitudeMSL: Double?
    /// Deprecated by gpsd in favour of `altMSL`; used only when that is absent.
    public var altitude: Double?
    public var speed: Double?
    public var track: Double?
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?

    public init() {}

    /// The fix this report describes (docs/hardware.md): mode 2 or 3 with a position in range (and not
    /// exactly 0,0, as for NMEA, docs/nmea.md); nil otherwise. The horizontal accuracy is gpsd's `eph`,
    /// else the larger of `epx` and `epy`, else unknown.
    public var fix: Fix? {
        guard mode >= 2, let latitude, let longitude, abs(latitude) <= 90, abs(longitude) <= 180,
            !(latitude == 0 && longitude == 0)
        else { return nil }
        let accuracy: Double? = eph ?? (epx.map { x in epy.map { max(x, $0) } ?? x } ?? epy)
        return Fix(
            time: time,
            timeOfDay: time.map(Self.timeOfDay) ?? TimeOfDay(milliseconds: 0),
            latitude: latitude, longitude: longitude,
            altitude: altitudeMSL ?? altitude,
            speed: speed, track: track,
            mode: mode >= 3 ? .threeD : .twoD,
            quality: status.map(Self.quality) ?? 1,
            accuracy: accuracy)
    }

    /// The UTC time of day of `time`.
    public static func timeOfDay(_ time: UTCTime) -> TimeOfDay {
        let day = Int64(TimeOfDay.millisecondsPerDay)
        return TimeOfDay(milliseconds: Int(((time.millisecondsSinceEpoch % day) + day) % day))
    }

    /// gpsd's TPV status as the GGA quality `Fix` carries.
    static func quality(_ status: Int) -> Int {
        switch status {
        case 2: 2  // DGPS
        case 3: 4  // RTK fixed
        case 4: 5  // RTK float
        case 5, 6: 6  // dead reckoning, GNSS + DR
        case 7: 7  // surveyed / fixed position
        case 8: 8  // simulated
        default: 1
        }
    }
}

/// One line of gpsd's output, scanned once for the fields a client acts on.
public struct GpsdReport {
    public var reportClass: GpsdClass
    /// TPV only.
    public var tpv = GpsdTPV()
    /// SKY: the satellites used in the solution, gpsd's `uSat`, else the count of its `satellites`
    /// marked `"used": true` (older gpsd has no `uSat`); nil when it says neither.
    public var satellitesUsed: Int?
    /// TPV and DEVICE: the device path (bytes of the JSON string, valid while the line is).
    public var device: UnsafeRawBufferPointer?
    /// DEVICE: `activated` is a time (open), or 0 / absent (closed).
    public var activated = false
    /// DEVICE: the driver gpsd identified (present once gpsd has synced to the device's data).
    public var hasDriver = false
    /// The whole report's members, for DEVICES, VERSION and ERROR, scanned again on demand.
    public let line: UnsafeRawBufferPointer

    /// Scans `line`; nil when it is not one JSON object with a string `class` (garbage, a
    /// truncated line, JSON of another shape). Fields of the wrong type count as absent.
    public init?(_ line: UnsafeRawBufferPointer) {
        self.line = line
        var reportClass: GpsdClass?
        var tpv = GpsdTPV()
        var device: UnsafeRawBufferPointer?
        var activated = false
        var hasDriver = false
        var uSat: Int?
        var usedCount: Int?
        let wellFormed = JSONFields.forEachMember(line) { key, value in
            switch key.count {
            case 3:
                if JSONFields.equal(key, "lat") {
                    tpv.latitude = value.double
                } else if JSONFields.equal(key, "lon") {
                    tpv.longitude = value.double
                } else if JSONFields.equal(key, "alt") {
                    tpv.altitude = value.double
                } else if JSONFields.equal(key, "eph") {
                    tpv.eph = value.double
                } else if JSONFields.equal(key, "epx") {
                    tpv.epx = value.double
                } else if JSONFields.equal(key, "epy") {
                    tpv.epy = value.double
                }
            case 4:
                if JSONFields.equal(key, "mode") {
                    tpv.mode = value.integer ?? 0
                } else if JSONFields.equal(key, "time") {
                    tpv.time = value.kind == .string ? ISOTime.parse(value.bytes) : nil
                } else if JSONFields.equal(key, "path") {
                    if value.kind == .string { device = value.bytes }
                } else if JSONFields.equal(key, "uSat") {
                    uSat = value.integer
                }
            case 5:
                if JSONFields.equal(key, "class") {
                    reportClass = Self.classify(value)
                } else if JSONFields.equal(key, "speed") {
                    tpv.speed = value.double
                } else if JSONFields.equal(key, "track") {
                    tpv.track = value.double
                }
            case 6:
                if JSONFields.equal(key, "altMSL") {
                    tpv.altitudeMSL = value.double
                } else if JSONFields.equal(key, "status") {
                    tpv.status = value.integer
                } else if JSONFields.equal(key, "device") {
                    if value.kind == .string { device = value.bytes }
                } else if JSONFields.equal(key, "driver") {
                    hasDriver = value.kind == .string
                }
            case 9:
                // A time string when open; 0 when gpsd closed the device.
                if JSONFields.equal(key, "activated") {
                    activated = value.kind == .string || (value.double.map { $0 != 0 } ?? false)
                }
            case 10:
                if JSONFields.equal(key, "satellites") { usedCount = Self.usedSatellites(value) }
            default: break
            }
        }
        guard wellFormed, let reportClass else { return nil }
        self.reportClass = reportClass
        self.tpv = tpv
        self.device = device
        self.activated = activated
        self.hasDriver = hasDriver
        satellitesUsed = reportClass == .sky ? uSat ?? usedCount : nil
    }

    /// How many of SKY's `satellites` say `"used": true`; nil for a malformed array.
    private static func usedSatellites(_ list: JSONValue) -> Int? {
        var used = 0
        let wellFormed = list.forEachElement { satellite in
            _ = satellite.forEachMember { key, field in
                if JSONFields.equal(key, "used"), field.bool == true { used += 1 }
            }
        }
        return wellFormed ? used : nil
    }

    private static func classify(_ value: JSONValue) -> GpsdClass? {
        guard value.kind == .string else { return nil }
        if value.isString("TPV") { return .tpv }
        if value.isString("SKY") { return .sky }
        if value.isString("DEVICE") { return .device }
        if value.isString("DEVICES") { return .devices }
        if value.isString("VERSION") { return .version }
        if value.isString("WATCH") { return .watch }
        if value.isString("ERROR") { return .error }
        return .other
    }

    /// A string member of the report (VERSION's `release`, ERROR's `message`); allocates.
    public func string(_ key: StaticString) -> String? {
        var result: String?
        _ = JSONFields.forEachMember(line) { name, value in
            if JSONFields.equal(name, key) { result = value.string }
        }
        return result
    }

    /// A DEVICES report's devices: path, whether open (`activated`), and the driver gpsd found.
    public func devices() -> [(path: String, activated: Bool, driver: String?)] {
        var list: [(path: String, activated: Bool, driver: String?)] = []
        _ = JSONFields.forEachMember(line) { name, value in
            guard JSONFields.equal(name, "devices") else { return }
            _ = value.forEachElement { element in
                var path: String?
                var activated = false
                var driver: String?
                _ = element.forEachMember { key, field in
                    if JSONFields.equal(key, "path") { path = field.string }
                    if JSONFields.equal(key, "activated") {
                        activated = field.kind == .string || (field.double.map { $0 != 0 } ?? false)
                    }
                    if JSONFields.equal(key, "driver") { driver = field.string }
                }
                if let path { list.append((path, activated, driver)) }
            }
        }
        return list
    }
}

/// gpsd's ISO 8601 times: `2026-02-03T10:15:02.000Z` (any number of fraction digits, or none).
public enum ISOTime {
    /// Milliseconds are rounded from the fraction, as NMEA times are (docs/nmea.md); nil unless the
    /// text is a valid UTC time of that form.
    public static func parse(_ text: UnsafeRawBufferPointer) -> UTCTime? {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= text.count else { return nil }
            var value = 0
            for index in from..<(from + count) {
                let byte = text[index]
                guard byte &- 0x30 < 10 else { return nil }
                value = value * 10 + Int(byte &- 0x30)
            }
            return value
        }
        guard text.count >= 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
            text[10] == UInt8(ascii: "T"),
            text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[text.count - 1] == UInt8(ascii: "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), hour < 24, let minute = number(14, 2), minute < 60,
            let second = number(17, 2), second <= 60
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        var milliseconds = 0
        if text.count > 20 {
            guard text[19] == UInt8(ascii: "."), text.count > 21 else { return nil }
            var scale = 100
            var roundUp = false
            for index in 20..<(text.count - 1) {
                let byte = text[index]
                guard byte &- 0x30 < 10 else { return nil }
                if scale > 0 {
                    milliseconds += Int(byte &- 0x30) * scale
                    scale /= 10
                } else if index == 23 {
                    roundUp = byte >= UInt8(ascii: "5")
                }
            }
            if roundUp { milliseconds += 1 }
        }
        let timeOfDay = TimeOfDay(milliseconds: ((hour * 60 + minute) * 60 + second) * 1000 + milliseconds)
        return UTCTime(date: date, timeOfDay: timeOfDay)
    }
}
