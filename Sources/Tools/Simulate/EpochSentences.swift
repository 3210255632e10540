import NMEA

/// The sentences one receiver epoch sends, in u-blox order: RMC, VTG, GGA, GSA, then GSV.
///
/// The satellites are a fixed, plausible constellation (8 used, HDOP 0.9): the simulator is about
/// positions, timing and the wire, not sky geometry.
public enum EpochSentences {
    static let satellites: [(prn: Int, elevation: Int, azimuth: Int, snr: Int)] = [
        (2, 61, 42, 44), (5, 34, 281, 40), (12, 22, 118, 37), (15, 48, 200, 42),
        (18, 11, 321, 31), (24, 70, 95, 46), (25, 27, 160, 39), (29, 15, 250, 33),
    ]

    public static func lines(for fix: SimulatedFix) -> [[UInt8]] {
        let time = SentenceWriter.time(
            TimeOfDay(milliseconds: Int(fix.time.millisecondsSinceEpoch % Int64(TimeOfDay.millisecondsPerDay))))
        let (latitude, north) = SentenceWriter.latitude(fix.latitude)
        let (longitude, east) = SentenceWriter.longitude(fix.longitude)
        let knots = SentenceWriter.decimal(fix.speed * 3600 / 1852, places: 3)
        let kmh = SentenceWriter.decimal(fix.speed * 3.6, places: 3)
        let track = SentenceWriter.decimal(fix.track, places: 2)
        let altitude = fix.altitude.map { SentenceWriter.decimal($0, places: 1) } ?? ""
        let used = satellites.map { pad2($0.prn) } + ["", "", "", ""]
        var lines = [
            "GPRMC,\(time),A,\(latitude),\(north),\(longitude),\(east),\(knots),\(track),\(SentenceWriter.date(fix.time.date)),,,A",
            "GPVTG,\(track),T,,M,\(knots),N,\(kmh),K,A",
            "GPGGA,\(time),\(latitude),\(north),\(longitude),\(east),1,08,0.9,\(altitude),M,,M,,",
            "GPGSA,A,\(fix.altitude == nil ? 2 : 3),\(used.joined(separator: ",")),1.6,0.9,1.3",
        ]
        for page in 0..<2 {
            let group = satellites[page * 4..<page * 4 + 4].map {
                "\(pad2($0.prn)),\(pad2($0.elevation)),\($0.azimuth),\($0.snr)"
            }
            lines.append("GPGSV,2,\(page + 1),08,\(group.joined(separator: ","))")
        }
        return lines.map(SentenceWriter.sentence)
    }

    static func pad2(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
