import JSONOutput

/// The `decode` outputs (docs/formats.md), written straight into a `JSONBuffer`: no `String` per
/// field, numbers at the precision of `JSONPrecision`, unknown values `null` (never zero).
extension Fix {
    /// One `decode` object, without the line feed.
    public func writeJSON(to out: JSONBuffer) {
        out.beginObject()
        out.key("time")
        if let time { time.writeJSON(to: out) } else { out.null() }
        out.key("lat")
        out.value(latitude, decimals: JSONPrecision.coordinate)
        out.key("lon")
        out.value(longitude, decimals: JSONPrecision.coordinate)
        out.key("alt")
        out.value(altitude, decimals: JSONPrecision.metres)
        out.key("speed")
        out.value(speed, decimals: JSONPrecision.speed)
        out.key("track")
        out.value(track, decimals: JSONPrecision.degrees)
        out.key("mode")
        out.value(mode.rawValue)
        out.key("quality")
        out.value(quality)
        out.key("sats")
        out.value(satellitesUsed)
        out.key("hdop")
        out.value(hdop, decimals: JSONPrecision.dop)
        out.key("accuracy")
        out.value(accuracy, decimals: JSONPrecision.metres)
        out.endObject()
    }

    /// The `decode` object as text (tests, and callers that print one fix).
    public var json: String {
        let out = JSONBuffer(capacity: 256)
        writeJSON(to: out)
        return out.string
    }
}

extension UTCTime {
    /// ISO 8601 with milliseconds and `Z`, as a JSON string: `"2026-02-03T10:15:02.000Z"`.
    public func writeJSON(to out: JSONBuffer) {
        let day = Int64(TimeOfDay.millisecondsPerDay)
        let dayPart = floorDivide(millisecondsSinceEpoch, day)
        var rest = Int(millisecondsSinceEpoch - dayPart * day)
        let milliseconds = rest % 1000
        rest /= 1000
        let date = CivilDate(daysSinceEpoch: Int(dayPart))
        out.beginRawValue()
        out.append(byte: 0x22)
        out.appendPadded(date.year, width: 4)
        out.append(byte: 0x2D)
        out.appendPadded(date.month, width: 2)
        out.append(byte: 0x2D)
        out.appendPadded(date.day, width: 2)
        out.append(byte: 0x54)
        out.appendPadded(rest / 3600, width: 2)
        out.append(byte: 0x3A)
        out.appendPadded(rest / 60 % 60, width: 2)
        out.append(byte: 0x3A)
        out.appendPadded(rest % 60, width: 2)
        out.append(byte: 0x2E)
        out.appendPadded(milliseconds, width: 3)
        out.append("Z\"")
    }
}

extension TimeOfDay {
    /// `"hh:mm:ss.sss"`, as a JSON string.
    public func writeJSON(to out: JSONBuffer) {
        let ms = milliseconds
        out.beginRawValue()
        out.append(byte: 0x22)
        out.appendPadded(ms / 3_600_000, width: 2)
        out.append(byte: 0x3A)
        out.appendPadded(ms / 60_000 % 60, width: 2)
        out.append(byte: 0x3A)
        out.appendPadded(ms / 1000 % 60, width: 2)
        out.append(byte: 0x2E)
        out.appendPadded(ms % 1000, width: 3)
        out.append(byte: 0x22)
    }
}

extension Sentence {
    /// One object per sentence for `decode --sentences`: the address, whether it had a checksum, and
    /// the decoded fields of the types we decode.
    public func writeJSON(raw: RawSentence, to out: JSONBuffer) {
        let address = raw.address
        out.beginObject()
        out.key("talker")
        if let talker = address.talker {
            withUnsafeBytes(of: talker.littleEndian) { out.value(utf8: $0) }
        } else {
            out.null()
        }
        out.key("type")
        let type = address.type
        withUnsafeBytes(of: type.packed.littleEndian) {
            out.value(utf8: UnsafeRawBufferPointer(rebasing: $0[0..<min(type.length, 8)]))
        }
        out.key("checksum")
        out.value(raw.hasChecksum)
        func time(_ value: TimeOfDay?) {
            out.key("time")
            if let value { value.writeJSON(to: out) } else { out.null() }
        }
        func number(_ name: StaticString, _ value: Double?, _ decimals: Int) {
            out.key(name)
            out.value(value, decimals: decimals)
        }
        func integer(_ name: StaticString, _ value: Int?) {
            out.key(name)
            out.value(value)
        }
        func character(_ name: StaticString, _ value: UInt8?) {
            out.key(name)
            out.value(character: value)
        }
        switch self {
        case .gga(let s):
            time(s.time)
            number("lat", s.latitude, JSONPrecision.coordinate)
            number("lon", s.longitude, JSONPrecision.coordinate)
            integer("quality", s.quality)
            integer("sats", s.satellitesUsed)
            number("hdop", s.hdop, JSONPrecision.dop)
            number("alt", s.altitude, JSONPrecision.metres)
            number("geoid_separation", s.geoidSeparation, JSONPrecision.metres)
            number("dgps_age", s.dgpsAge, JSONPrecision.seconds)
            integer("dgps_station", s.dgpsStation)
        case .rmc(let s):
            time(s.time)
            character("status", s.status)
            number("lat", s.latitude, JSONPrecision.coordinate)
            number("lon", s.longitude, JSONPrecision.coordinate)
            number("speed_knots", s.speedKnots, JSONPrecision.speed)
            number("track", s.track, JSONPrecision.degrees)
            integer("day", s.day)
            integer("month", s.month)
            integer("year2", s.twoDigitYear)
            number("magvar", s.magneticVariation, JSONPrecision.degrees)
            character("mode", s.mode)
            character("nav_status", s.navigationalStatus)
        case .gll(let s):
            number("lat", s.latitude, JSONPrecision.coordinate)
            number("lon", s.longitude, JSONPrecision.coordinate)
            time(s.time)
            character("status", s.status)
            character("mode", s.mode)
        case .gns(let s):
            time(s.time)
            number("lat", s.latitude, JSONPrecision.coordinate)
            number("lon", s.longitude, JSONPrecision.coordinate)
            out.key("has_fix")
            out.value(s.hasFix)
            integer("sats", s.satellitesUsed)
            number("hdop", s.hdop, JSONPrecision.dop)
            number("alt", s.altitude, JSONPrecision.metres)
            number("geoid_separation", s.geoidSeparation, JSONPrecision.metres)
        case .gsa(let s):
            character("selection", s.selection)
            integer("fix_type", s.fixType)
            integer("sats", s.satellitesUsed)
            number("pdop", s.pdop, JSONPrecision.dop)
            number("hdop", s.hdop, JSONPrecision.dop)
            number("vdop", s.vdop, JSONPrecision.dop)
            integer("system_id", s.systemID)
        case .gsv(let s):
            integer("total", s.totalMessages)
            integer("number", s.messageNumber)
            integer("in_view", s.satellitesInView)
            out.key("satellites")
            out.beginArray()
            for index in 0..<s.satelliteCount {
                let satellite = s.satellite(index)
                out.beginObject()
                integer("prn", satellite.prn)
                integer("elevation", satellite.elevation)
                integer("azimuth", satellite.azimuth)
                integer("snr", satellite.snr)
                out.endObject()
            }
            out.endArray()
            integer("signal_id", s.signalID)
        case .gst(let s):
            time(s.time)
            number("rms", s.rangeRMS, JSONPrecision.metres)
            number("semi_major", s.semiMajor, JSONPrecision.metres)
            number("semi_minor", s.semiMinor, JSONPrecision.metres)
            number("orientation", s.orientation, JSONPrecision.degrees)
            number("lat_error", s.latitudeError, JSONPrecision.metres)
            number("lon_error", s.longitudeError, JSONPrecision.metres)
            number("alt_error", s.altitudeError, JSONPrecision.metres)
        case .gbs(let s):
            time(s.time)
            number("lat_error", s.latitudeError, JSONPrecision.metres)
            number("lon_error", s.longitudeError, JSONPrecision.metres)
            number("alt_error", s.altitudeError, JSONPrecision.metres)
            integer("failed_satellite", s.failedSatellite)
            number("missed_detection", s.missedDetectionProbability, JSONPrecision.dop)
            number("bias", s.bias, JSONPrecision.metres)
            number("bias_deviation", s.biasDeviation, JSONPrecision.metres)
            integer("system_id", s.systemID)
            integer("signal_id", s.signalID)
        case .vtg(let s):
            number("track", s.trackTrue, JSONPrecision.degrees)
            number("track_magnetic", s.trackMagnetic, JSONPrecision.degrees)
            number("speed_knots", s.speedKnots, JSONPrecision.speed)
            number("speed_kmh", s.speedKmh, JSONPrecision.speed)
            character("mode", s.mode)
        case .zda(let s):
            time(s.time)
            integer("day", s.day)
            integer("month", s.month)
            integer("year", s.year)
        case .txt(let s):
            integer("total", s.totalMessages)
            integer("number", s.messageNumber)
            integer("id", s.identifier)
            out.key("text")
            out.value(utf8: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: raw.body[s.text])))
        case .other:
            out.key("decoded")
            out.value(false)
        }
        out.endObject()
    }

    /// The `decode --sentences` object as text.
    public func json(raw: RawSentence) -> String {
        let out = JSONBuffer(capacity: 512)
        writeJSON(raw: raw, to: out)
        return out.string
    }
}
