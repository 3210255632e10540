import JSONInput
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
    /// SKY: what it says of the sky for the integrity monitor: each satellite's signal (`listed`
    /// when it has a `satellites` array), and the PDOP and VDOP unless it says no satellite is used
    /// (gpsd repeats the receiver's 99.99 of a cycle without a fix, as NMEA's GSA does).
    public var sky = EpochSky()
    /// SKY: gpsd's `hdop`, on the same terms as the other DOPs.
    public var hdop: Double?
    /// GST: the error ellipse (1-sigma metres, `major`, `minor`, `alt`); `tpv.time` is its time.
    public var ellipse: EpochSky.ErrorEllipse?
    /// TPV and DEVICE: the device path (bytes of the JSON string, valid while the line is).
    public var device: UnsafeRawBufferPointer?
    /// DEVICE: `activated` is a time (open), or 0 / absent (closed).
    public var activated = false
    /// DEVICE: the driver gpsd identified (present once gpsd has synced to the device's data).
    public var hasDriver = false
    /// The whole report, for DEVICES, VERSION and ERROR, scanned again on demand.
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
        var sky = EpochSky()
        var dops: (pdop: Double?, vdop: Double?, hdop: Double?) = (nil, nil, nil)
        var axes: (major: Double?, minor: Double?) = (nil, nil)
        var scanner = JSONScanner(line)
        do throws(JSONSyntaxError) {
            try scanner.members { (scanner, key) throws(JSONSyntaxError) in
                switch key.end - key.start {
                case 3:
                    if scanner.spanEquals(key, "lat") {
                        tpv.latitude = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "lon") {
                        tpv.longitude = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "alt") {
                        tpv.altitude = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "eph") {
                        tpv.eph = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "epx") {
                        tpv.epx = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "epy") {
                        tpv.epy = try Self.finiteNumber(&scanner)
                    } else {
                        try scanner.skipValue()
                    }
                case 4:
                    if scanner.spanEquals(key, "mode") {
                        tpv.mode = try scanner.integerIfNumber() ?? 0
                    } else if scanner.spanEquals(key, "time") {
                        tpv.time = try scanner.stringSpanIfString().flatMap { ISOTime.parse(scanner.bytes($0)) }
                    } else if scanner.spanEquals(key, "path") {
                        if let path = try scanner.stringSpanIfString() { device = scanner.bytes(path) }
                    } else if scanner.spanEquals(key, "uSat") {
                        uSat = try scanner.integerIfNumber()
                    } else if scanner.spanEquals(key, "pdop") {
                        dops.pdop = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "vdop") {
                        dops.vdop = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "hdop") {
                        dops.hdop = try Self.finiteNumber(&scanner)
                    } else {
                        try scanner.skipValue()
                    }
                case 5:
                    if scanner.spanEquals(key, "class") {
                        reportClass = try Self.classify(&scanner)
                    } else if scanner.spanEquals(key, "speed") {
                        tpv.speed = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "track") {
                        tpv.track = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "major") {
                        axes.major = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "minor") {
                        axes.minor = try Self.finiteNumber(&scanner)
                    } else {
                        try scanner.skipValue()
                    }
                case 6:
                    if scanner.spanEquals(key, "altMSL") {
                        tpv.altitudeMSL = try Self.finiteNumber(&scanner)
                    } else if scanner.spanEquals(key, "status") {
                        tpv.status = try scanner.integerIfNumber()
                    } else if scanner.spanEquals(key, "device") {
                        if let path = try scanner.stringSpanIfString() { device = scanner.bytes(path) }
                    } else if scanner.spanEquals(key, "driver") {
                        hasDriver = try scanner.stringSpanIfString() != nil
                    } else {
                        try scanner.skipValue()
                    }
                case 9 where scanner.spanEquals(key, "activated"):
                    activated = try Self.isActivated(&scanner)
                case 10 where scanner.spanEquals(key, "satellites"):
                    usedCount = try Self.satellites(&scanner, into: &sky)
                default:
                    try scanner.skipValue()
                }
            }
            try scanner.expectEnd()
        } catch {
            return nil
        }
        guard let reportClass else { return nil }
        self.reportClass = reportClass
        self.tpv = tpv
        self.device = device
        self.activated = activated
        self.hasDriver = hasDriver
        switch reportClass {
        case .sky:
            let used = uSat ?? usedCount
            satellitesUsed = used
            if used != 0 {
                sky.pdop = dops.pdop
                sky.vdop = dops.vdop
                hdop = dops.hdop
            }
            self.sky = sky
        case .other:
            // GST among the other reports: its `lat`, `lon` and `alt` are errors, not a position.
            if let major = axes.major, let minor = axes.minor {
                ellipse = EpochSky.ErrorEllipse(semiMajor: major, semiMinor: minor, altitudeError: tpv.altitude)
            }
        case .tpv, .device, .devices, .version, .watch, .error:
            break
        }
    }

    /// A number that is finite (`1e999` is not), else absent.
    private static func finiteNumber(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Double? {
        try scanner.numberIfNumber().flatMap { $0.isFinite ? $0 : nil }
    }

    /// `activated`: a time string when open; 0 when gpsd closed the device.
    private static func isActivated(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Bool {
        if scanner.nextKind() == .string {
            _ = try scanner.stringSpan()
            return true
        }
        return try finiteNumber(&scanner).map { $0 != 0 } ?? false
    }

    /// SKY's `satellites`, each into `sky` (which is then `listed`); returns how many say
    /// `"used": true`, nil when it is not an array. A satellite is known by gpsd's `gnssid`, `svid`
    /// and `sigid` when it gives them (one number per constellation), else by its `PRN`; its
    /// `ss` is its C/N0, 0 or absent when it is not tracked.
    private static func satellites(_ scanner: inout JSONScanner, into sky: inout EpochSky) throws(JSONSyntaxError)
        -> Int?
    {
        guard scanner.nextKind() == .array else {
            try scanner.skipValue()
            return nil
        }
        var used = 0
        try scanner.elements { (scanner) throws(JSONSyntaxError) in
            guard scanner.nextKind() == .object else { return try scanner.skipValue() }
            var prn: Int?
            var system: Int?
            var number: Int?
            var signal: Int?
            var strength: Double?
            try scanner.members { (scanner, key) throws(JSONSyntaxError) in
                if scanner.spanEquals(key, "used") {
                    if try scanner.boolIfBool() == true { used += 1 }
                } else if scanner.spanEquals(key, "PRN") {
                    prn = try scanner.integerIfNumber()
                } else if scanner.spanEquals(key, "ss") {
                    strength = try finiteNumber(&scanner)
                } else if scanner.spanEquals(key, "gnssid") {
                    system = try scanner.integerIfNumber()
                } else if scanner.spanEquals(key, "svid") {
                    number = try scanner.integerIfNumber()
                } else if scanner.spanEquals(key, "sigid") {
                    signal = try scanner.integerIfNumber()
                } else {
                    try scanner.skipValue()
                }
            }
            let cn0 = strength.flatMap { $0 >= 0.5 ? UInt8(clamping: Int($0.rounded())) : nil }
            if let system, let number, (0..<256).contains(system), number > 0 {
                // Kept apart from the satellites known by their PRN alone (talker 0).
                sky.append(
                    EpochSky.Signal(
                        talker: 0x100 | UInt16(system), signalID: UInt8(clamping: max(0, signal ?? 0)),
                        prn: UInt16(clamping: number), cn0: cn0))
            } else if let prn, prn > 0 {
                sky.append(EpochSky.Signal(talker: 0, signalID: 0, prn: UInt16(clamping: prn), cn0: cn0))
            }
        }
        sky.listed = true
        return used
    }

    private static func classify(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> GpsdClass? {
        guard let name = try scanner.stringSpanIfString() else { return nil }
        if scanner.spanEquals(name, "TPV") { return .tpv }
        if scanner.spanEquals(name, "SKY") { return .sky }
        if scanner.spanEquals(name, "DEVICE") { return .device }
        if scanner.spanEquals(name, "DEVICES") { return .devices }
        if scanner.spanEquals(name, "VERSION") { return .version }
        if scanner.spanEquals(name, "WATCH") { return .watch }
        if scanner.spanEquals(name, "ERROR") { return .error }
        return .other
    }

    /// Calls `body` with each member of the line, which `init` has found well formed; `body`
    /// must consume the member's value.
    private func forEachMember(_ body: (inout JSONScanner, JSONScanner.Span) throws(JSONSyntaxError) -> Void) {
        var scanner = JSONScanner(line)
        try? scanner.members(body)
    }

    /// A string member of the report (VERSION's `release`, ERROR's `message`); allocates.
    public func string(_ key: StaticString) -> String? {
        var result: String?
        forEachMember { (scanner, name) throws(JSONSyntaxError) in
            if scanner.spanEquals(name, key), let value = try scanner.stringSpanIfString() {
                result = try? scanner.string(value)
            } else {
                try scanner.skipValue()
            }
        }
        return result
    }

    /// An integer member of the report (VERSION's `proto_major`); nil when absent or not an integer.
    public func integer(_ key: StaticString) -> Int? {
        var result: Int?
        forEachMember { (scanner, name) throws(JSONSyntaxError) in
            if scanner.spanEquals(name, key) {
                result = try scanner.integerIfNumber()
            } else {
                try scanner.skipValue()
            }
        }
        return result
    }

    /// A DEVICES report's devices: path, whether open (`activated`), and the driver gpsd found.
    public func devices() -> [(path: String, activated: Bool, driver: String?)] {
        var list: [(path: String, activated: Bool, driver: String?)] = []
        forEachMember { (scanner, name) throws(JSONSyntaxError) in
            guard scanner.spanEquals(name, "devices"), scanner.nextKind() == .array else {
                return try scanner.skipValue()
            }
            try scanner.elements { (scanner) throws(JSONSyntaxError) in
                guard scanner.nextKind() == .object else { return try scanner.skipValue() }
                var path: String?
                var activated = false
                var driver: String?
                try scanner.members { (scanner, key) throws(JSONSyntaxError) in
                    if scanner.spanEquals(key, "path") {
                        path = try scanner.stringSpanIfString().flatMap { try? scanner.string($0) }
                    } else if scanner.spanEquals(key, "activated") {
                        activated = try Self.isActivated(&scanner)
                    } else if scanner.spanEquals(key, "driver") {
                        driver = try scanner.stringSpanIfString().flatMap { try? scanner.string($0) }
                    } else {
                        try scanner.skipValue()
                    }
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
