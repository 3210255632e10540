import NMEA

/// The sentences one receiver epoch sends, in u-blox order: RMC, VTG, GGA, GSA, GSV, then GST
/// when the condition asks for the error ellipse.
///
/// The satellites are a fixed, plausible constellation (8 in view and used, HDOP 0.9 on an open
/// sky), each with a C/N0 that wanders a little over time (`SignalCondition`); a jammer takes
/// satellites away (fewer used, higher DOPs, a wider ellipse, then no fix), a spoofer flattens
/// their C/N0. The simulator is about positions, timing and the wire, not sky geometry.
public enum EpochSentences {
    static let satellites: [(prn: Int, elevation: Int, azimuth: Int, snr: Int)] = [
        (2, 61, 42, 44), (5, 34, 281, 40), (12, 22, 118, 37), (15, 48, 200, 42),
        (18, 11, 321, 31), (24, 70, 95, 46), (25, 27, 160, 39), (29, 15, 250, 33),
    ]

    public static func lines(for fix: SimulatedFix, condition: SignalCondition? = nil) -> [[UInt8]] {
        let condition = condition ?? SignalCondition(elapsed: 0)
        let sky = condition.sky(satellites)
        let used = sky.filter(\.used)
        let time = SentenceWriter.time(
            TimeOfDay(milliseconds: Int(fix.time.millisecondsSinceEpoch % Int64(TimeOfDay.millisecondsPerDay))))
        let date = SentenceWriter.date(fix.time.date)
        var lines: [String]
        if used.count >= SignalCondition.satellitesForFix {
            let (latitude, north) = SentenceWriter.latitude(fix.latitude)
            let (longitude, east) = SentenceWriter.longitude(fix.longitude)
            let knots = SentenceWriter.decimal(fix.speed * 3600 / 1852, places: 3)
            let kmh = SentenceWriter.decimal(fix.speed * 3.6, places: 3)
            let track = SentenceWriter.decimal(fix.track, places: 2)
            let altitude = fix.altitude.map { SentenceWriter.decimal($0, places: 1) } ?? ""
            // Fewer satellites, weaker geometry: DOPs grow as satellites are lost.
            let spread = (Double(satellites.count) / Double(used.count)).squareRoot()
            let hdop = SentenceWriter.decimal(0.9 * spread, places: 1)
            let usedFields = used.map { pad2($0.prn) } + Array(repeating: "", count: 12 - used.count)
            lines = [
                "GPRMC,\(time),A,\(latitude),\(north),\(longitude),\(east),\(knots),\(track),\(date),,,A",
                "GPVTG,\(track),T,,M,\(knots),N,\(kmh),K,A",
                "GPGGA,\(time),\(latitude),\(north),\(longitude),\(east),1,\(pad2(used.count)),\(hdop),\(altitude),M,,M,,",
                "GPGSA,A,\(fix.altitude == nil ? 2 : 3),\(usedFields.joined(separator: ",")),"
                    + "\(SentenceWriter.decimal(1.6 * spread, places: 1)),\(hdop),"
                    + "\(SentenceWriter.decimal(1.3 * spread, places: 1))",
            ]
            lines += gsv(sky)
            if condition.writesErrorEllipse {
                // One sigma of the horizontal error: HDOP times a few metres on an open sky, wider
                // as a jammer drowns the signals; a spoofer's clean signals look very good.
                let sigma =
                    condition.spoofedCN0 != nil ? 0.8 : 0.9 * spread * 1.6 * (1 + condition.jammingLoss / 8)
                let fields = [0.7, 1.3, 0.8].map { SentenceWriter.decimal(sigma * $0, places: 1) }
                let errors = [1.1, 0.9, 1.9].map { SentenceWriter.decimal(sigma * $0, places: 1) }
                lines.append(
                    "GPGST,\(time),\(fields[0]),\(fields[1]),\(fields[2]),35.0,\(errors.joined(separator: ","))")
            }
        } else {
            // No fix: the receiver's clock still runs; position fields empty, GGA quality 0.
            lines = [
                "GPRMC,\(time),V,,,,,,,\(date),,,N",
                "GPVTG,,,,,,,,,N",
                "GPGGA,\(time),,,,,0,\(pad2(used.count)),99.99,,,,,,",
                "GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99",
            ]
            lines += gsv(sky)
            if condition.writesErrorEllipse { lines.append("GPGST,\(time),,,,,,,") }
        }
        return lines.map(SentenceWriter.sentence)
    }

    /// Four satellites a sentence; an untracked one has an empty C/N0 field.
    static func gsv(_ sky: [SatelliteView]) -> [String] {
        let pages = (sky.count + 3) / 4
        return (0..<pages).map { page in
            let group = sky[(page * 4)..<min(sky.count, page * 4 + 4)].map {
                "\(pad2($0.prn)),\(pad2($0.elevation)),\($0.azimuth),\($0.cn0.map(String.init) ?? "")"
            }
            return "GPGSV,\(pages),\(page + 1),\(pad2(sky.count)),\(group.joined(separator: ","))"
        }
    }

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
