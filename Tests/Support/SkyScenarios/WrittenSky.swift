import Foundation

/// NMEA written for the integrity monitor's tests: per cycle a GGA, GSA, GSV listing, optional
/// GST and GBS, and RMC, from 2026-02-03 10:00:00 UTC at 47° N 8° E. The scenarios are what the
/// monitor must tell apart: a quiet sky, a jammer's onset, a spoofer's takeover, urban driving.
public enum WrittenSky {
    public struct Satellite: Sendable {
        public var prn: Int
        public var elevation: Int
        public var azimuth: Int
        /// dB-Hz; nil: in view, not tracked.
        public var cn0: Int?

        public init(prn: Int, elevation: Int, azimuth: Int, cn0: Int?) {
            self.prn = prn
            self.elevation = elevation
            self.azimuth = azimuth
            self.cn0 = cn0
        }
    }

    public struct Cycle: Sendable {
        /// Seconds after 10:00:00 by the receiver's clock.
        public var time: Double
        /// Metres east and north of 47° N 8° E.
        public var east: Double
        public var north = 0.0
        public var altitude = 512.0
        /// m/s and degrees true.
        public var speed = 0.0
        public var course = 0.0
        public var satellites: [Satellite]
        public var hasFix = true
        public var pdop = 1.8
        public var hdop = 0.9
        /// GST's semi-major axis, m; nil: no GST.
        public var ellipse: Double? = 3
        /// GBS's failed satellite; nil: a GBS naming none.
        public var raimFailed: Int?

        public init(time: Double, east: Double, satellites: [Satellite]) {
            self.time = time
            self.east = east
            self.satellites = satellites
        }
    }

    /// Metres per degree at 47° N on the sphere the engine uses.
    public static let metresPerDegreeNorth = 6_371_008.8 * Double.pi / 180
    public static let metresPerDegreeEast = metresPerDegreeNorth * cos(47 * Double.pi / 180)

    public static func latitude(north: Double) -> Double { 47 + north / metresPerDegreeNorth }
    public static func longitude(east: Double) -> Double { 8 + east / metresPerDegreeEast }

    /// 10:00:00 UTC on the cycles' day, in ms since 1970.
    public static let start: Int64 = 1_770_112_800_000

    /// A deterministic noise source: the same test writes the same NMEA on every run.
    public struct Noise: Sendable {
        private var state: UInt64

        public init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1 }

        /// A whole number in `range`.
        public mutating func next(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let span = UInt64(range.upperBound - range.lowerBound + 1)
            return range.lowerBound + Int((state >> 33) % span)
        }
    }

    /// Twelve satellites of an open sky, C/N0 from 30 to 48 dB-Hz by elevation.
    public static func openSky() -> [Satellite] {
        (0..<12).map { index in
            let elevation = 10 + index * 7
            return Satellite(prn: index * 2 + 3, elevation: elevation, azimuth: index * 30, cn0: 30 + elevation / 5)
        }
    }

    /// `seconds` cycles at rest under an open sky, C/N0 ±2 dB-Hz of noise, from `from` seconds.
    public static func atRest(_ seconds: Range<Int>, noise: inout Noise) -> [Cycle] {
        seconds.map { second in
            var satellites = openSky()
            for index in satellites.indices { satellites[index].cn0! += noise.next(-2...2) }
            return Cycle(time: Double(second), east: Double(noise.next(-2...2)), satellites: satellites)
        }
    }

    /// At rest, then a jammer from `onset`: every satellite's C/N0 falls `fall` dB-Hz a second, a
    /// satellite below 20 dB-Hz is no longer tracked, and below four tracked there is no fix.
    public static func jammer(onset: Int, seconds: Int, fall perSecond: Int = 3) -> [Cycle] {
        var noise = Noise(seed: 1)
        var cycles = atRest(0..<onset, noise: &noise)
        for second in onset..<seconds {
            let fall = perSecond * (second - onset + 1)
            var satellites = openSky()
            for index in satellites.indices {
                let cn0 = satellites[index].cn0! + noise.next(-1...1) - fall
                satellites[index].cn0 = cn0 >= 20 ? cn0 : nil
            }
            var cycle = Cycle(time: Double(second), east: 0, satellites: satellites)
            cycle.hasFix = satellites.filter { $0.cn0 != nil }.count >= 4
            cycle.hdop = 2.5
            cycles.append(cycle)
        }
        return cycles
    }

    /// At rest, then a spoofer from `takeover`: every satellite at 49-51 dB-Hz, the receiver's
    /// clock 1.8 s ahead, the position pulled east at 3 m/s with that speed and course.
    public static func spoofer(takeover: Int, seconds: Int) -> [Cycle] {
        var noise = Noise(seed: 2)
        var cycles = atRest(0..<takeover, noise: &noise)
        for second in takeover..<seconds {
            var satellites = openSky()
            for index in satellites.indices { satellites[index].cn0 = 49 + noise.next(0...2) }
            var cycle = Cycle(
                time: Double(second) + 1.8, east: 3 * Double(second - takeover + 1), satellites: satellites)
            cycle.speed = 3
            cycle.course = 90
            cycles.append(cycle)
        }
        return cycles
    }

    /// Driving east at 12 m/s between buildings: each satellite is blocked for 8 s of every 90
    /// (one after another, never two at once), and C/N0 has ±3 dB-Hz of noise.
    public static func urbanDrive(seconds: Int) -> [Cycle] {
        var noise = Noise(seed: 3)
        return (0..<seconds).map { second in
            var satellites = openSky()
            for index in satellites.indices {
                let blocked = (second + index * 90 / satellites.count) % 90 < 8
                satellites[index].cn0 = blocked ? nil : satellites[index].cn0! + noise.next(-3...3)
            }
            var cycle = Cycle(time: Double(second), east: 12 * Double(second), satellites: satellites)
            cycle.speed = 12
            cycle.course = 90
            cycle.hdop = 1.2
            return cycle
        }
    }

    /// The cycles as NMEA text.
    public static func nmea(_ cycles: [Cycle]) -> String {
        var text = ""
        for cycle in cycles {
            let milliseconds = Int((cycle.time * 1000).rounded())
            let total = 10 * 3600 * 1000 + milliseconds
            let time = String(
                format: "%02d%02d%02d.%02d", total / 3_600_000, total / 60_000 % 60, total / 1000 % 60,
                total % 1000 / 10)
            let latitude = Self.latitude(north: cycle.north)
            let longitude = Self.longitude(east: cycle.east)
            let lat = String(format: "%02d%07.4f", Int(latitude), (latitude - Double(Int(latitude))) * 60)
            let lon = String(format: "%03d%07.4f", Int(longitude), (longitude - Double(Int(longitude))) * 60)
            let tracked = cycle.satellites.filter { $0.cn0 != nil }
            let used = tracked.prefix(12).map { String(format: "%02d", $0.prn) }
            let slots = (used + Array(repeating: "", count: 12 - used.count)).joined(separator: ",")
            let knots = String(format: "%.1f", cycle.speed * 3600 / 1852)
            let course = String(format: "%.1f", cycle.course)
            if cycle.hasFix {
                text += sentence(
                    "GPGGA,\(time),\(lat),N,\(lon),E,1,\(String(format: "%02d", used.count)),"
                        + "\(cycle.hdop),\(String(format: "%.1f", cycle.altitude)),M,47.0,M,,")
                text += sentence("GPGSA,A,3,\(slots),\(cycle.pdop),\(cycle.hdop),1.5")
            } else {
                text += sentence("GPGGA,\(time),,,,,0,00,99.9,,M,,M,,")
                text += sentence("GPGSA,A,1,,,,,,,,,,,,,99.9,99.9,99.9")
            }
            let parts = max(1, (cycle.satellites.count + 3) / 4)
            for part in 0..<parts {
                let group = cycle.satellites.dropFirst(part * 4).prefix(4)
                let fields = group.map { satellite in
                    String(format: "%02d,%02d,%03d,", satellite.prn, satellite.elevation, satellite.azimuth)
                        + (satellite.cn0.map { String(format: "%02d", $0) } ?? "")
                }
                text += sentence(
                    "GPGSV,\(parts),\(part + 1),\(String(format: "%02d", cycle.satellites.count))"
                        + fields.map { "," + $0 }.joined())
            }
            if cycle.hasFix, let ellipse = cycle.ellipse {
                let sigma = String(format: "%.1f", ellipse / 1.5)
                text += sentence(
                    "GPGST,\(time),2.0,\(String(format: "%.1f", ellipse)),\(sigma),0.0,\(sigma),\(sigma),4.0")
            }
            if cycle.hasFix {
                let failed = cycle.raimFailed.map { String(format: "%02d", $0) } ?? ""
                text += sentence("GPGBS,\(time),2.0,2.0,4.0,\(failed),,,")
                text += sentence("GPRMC,\(time),A,\(lat),N,\(lon),E,\(knots),\(course),030226,,,A")
            } else {
                text += sentence("GPRMC,\(time),V,,,,,,,030226,,,N")
            }
        }
        return text
    }

    static func sentence(_ body: String) -> String {
        String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
    }
}
