/// Builds one JSON object as text, for the `decode` output. Values that are unknown are written as
/// `null`, never as zero. Not on the hot path: the engine uses `Fix` values, not text.
public struct JSONLine {
    private var text = "{"
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        if !first { text += "," }
        first = false
        text += "\"" + name + "\":"
    }

    public mutating func add(_ name: String, _ value: Double?) {
        key(name)
        if let value, value.isFinite { text += value.description } else { text += "null" }
    }

    public mutating func add(_ name: String, _ value: Int?) {
        key(name)
        text += value.map(String.init) ?? "null"
    }

    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        if let value { text += Self.quoted(value) } else { text += "null" }
    }

    /// A character field such as a status flag; null when absent.
    public mutating func add(_ name: String, character value: UInt8?) {
        add(name, value.map { String(decoding: [$0], as: UTF8.self) })
    }

    public mutating func addRaw(_ name: String, json: String) {
        key(name)
        text += json
    }

    public var string: String { text + "}" }

    /// A JSON string literal with the escapes RFC 8259 requires.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension Fix {
    /// The `decode` output object (SPEC §9): one line, unknown values `null`.
    public var json: String {
        var line = JSONLine()
        line.add("time", time?.description)
        line.add("lat", latitude)
        line.add("lon", longitude)
        line.add("alt", altitude)
        line.add("speed", speed)
        line.add("track", track)
        line.add("mode", mode.rawValue)
        line.add("quality", quality)
        line.add("sats", satellitesUsed)
        line.add("hdop", hdop)
        line.add("accuracy", accuracy)
        return line.string
    }
}

extension Sentence {
    /// One object per sentence for `decode --sentences`: the address, whether it had a checksum, and
    /// the decoded fields of the types we decode.
    public func json(raw: RawSentence) -> String {
        var line = JSONLine()
        let address = raw.address
        line.add("talker", address.talker.map { SentenceAddress.text(UInt64($0), 2) })
        line.add("type", address.type.description)
        line.add("checksum", raw.hasChecksum)
        switch self {
        case .gga(let s):
            line.add("time", s.time.map(Self.timeText))
            line.add("lat", s.latitude)
            line.add("lon", s.longitude)
            line.add("quality", s.quality)
            line.add("sats", s.satellitesUsed)
            line.add("hdop", s.hdop)
            line.add("alt", s.altitude)
            line.add("geoid_separation", s.geoidSeparation)
            line.add("dgps_age", s.dgpsAge)
            line.add("dgps_station", s.dgpsStation)
        case .rmc(let s):
            line.add("time", s.time.map(Self.timeText))
            line.add("status", character: s.status)
            line.add("lat", s.latitude)
            line.add("lon", s.longitude)
            line.add("speed_knots", s.speedKnots)
            line.add("track", s.track)
            line.add("day", s.day)
            line.add("month", s.month)
            line.add("year2", s.twoDigitYear)
            line.add("magvar", s.magneticVariation)
            line.add("mode", character: s.mode)
            line.add("nav_status", character: s.navigationalStatus)
        case .gll(let s):
            line.add("lat", s.latitude)
            line.add("lon", s.longitude)
            line.add("time", s.time.map(Self.timeText))
            line.add("status", character: s.status)
            line.add("mode", character: s.mode)
        case .gns(let s):
            line.add("time", s.time.map(Self.timeText))
            line.add("lat", s.latitude)
            line.add("lon", s.longitude)
            line.add("has_fix", s.hasFix)
            line.add("sats", s.satellitesUsed)
            line.add("hdop", s.hdop)
            line.add("alt", s.altitude)
            line.add("geoid_separation", s.geoidSeparation)
        case .gsa(let s):
            line.add("selection", character: s.selection)
            line.add("fix_type", s.fixType)
            line.add("sats", s.satellitesUsed)
            line.add("pdop", s.pdop)
            line.add("hdop", s.hdop)
            line.add("vdop", s.vdop)
            line.add("system_id", s.systemID)
        case .gsv(let s):
            line.add("total", s.totalMessages)
            line.add("number", s.messageNumber)
            line.add("in_view", s.satellitesInView)
            var satellites: [String] = []
            for index in 0..<s.satelliteCount {
                let satellite = s.satellite(index)
                var object = JSONLine()
                object.add("prn", satellite.prn)
                object.add("elevation", satellite.elevation)
                object.add("azimuth", satellite.azimuth)
                object.add("snr", satellite.snr)
                satellites.append(object.string)
            }
            line.addRaw("satellites", json: "[" + satellites.joined(separator: ",") + "]")
            line.add("signal_id", s.signalID)
        case .gst(let s):
            line.add("time", s.time.map(Self.timeText))
            line.add("rms", s.rangeRMS)
            line.add("semi_major", s.semiMajor)
            line.add("semi_minor", s.semiMinor)
            line.add("orientation", s.orientation)
            line.add("lat_error", s.latitudeError)
            line.add("lon_error", s.longitudeError)
            line.add("alt_error", s.altitudeError)
        case .vtg(let s):
            line.add("track", s.trackTrue)
            line.add("track_magnetic", s.trackMagnetic)
            line.add("speed_knots", s.speedKnots)
            line.add("speed_kmh", s.speedKmh)
            line.add("mode", character: s.mode)
        case .zda(let s):
            line.add("time", s.time.map(Self.timeText))
            line.add("day", s.day)
            line.add("month", s.month)
            line.add("year", s.year)
        case .txt(let s):
            line.add("total", s.totalMessages)
            line.add("number", s.messageNumber)
            line.add("id", s.identifier)
            line.add("text", String(decoding: UnsafeBufferPointer(rebasing: raw.body[s.text]), as: UTF8.self))
        case .other:
            line.add("decoded", false)
        }
        return line.string
    }

    static func timeText(_ time: TimeOfDay) -> String {
        let ms = time.milliseconds
        return pad(ms / 3_600_000, 2) + ":" + pad(ms / 60_000 % 60, 2) + ":" + pad(ms / 1000 % 60, 2) + "."
            + pad(ms % 1000, 3)
    }
}
