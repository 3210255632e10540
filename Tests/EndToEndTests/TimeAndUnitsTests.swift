import Foundation
import Testing

/// Local time, local days and the reader's units (docs/running.md, "Time and units"), through the
/// real binary: what people read follows `TZ`, `--timezone`, `--utc` and `--units`; JSON keeps UTC.
@Suite struct TimeAndUnitsTests {
    let bridge = ["captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson"]

    func lines(_ result: CommandResult, _ kind: String) -> [Substring] {
        result.stdout.split(separator: "\n").filter { $0.contains("  \(kind) ") }
    }

    /// The bridge drive's approach is at 10:15:36Z: 19:15:36 in Tokyo, 05:15:36 in New York.
    @Test func consoleLinesAreInTheUsersZone() throws {
        let tokyo = try runGPSFence(["replay"] + bridge, environment: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.status == 0, "\(tokyo.stderr)")
        #expect(
            lines(tokyo, "approach").first?.hasPrefix("2026-02-03 19:15:36+09:00  approach") == true, "\(tokyo.stdout)")

        let utc = try runGPSFence(["replay"] + bridge + ["--utc"], environment: ["TZ": "Asia/Tokyo"])
        #expect(lines(utc, "approach").first?.hasPrefix("2026-02-03 10:15:36Z  approach") == true, "\(utc.stdout)")

        let newYork = try runGPSFence(
            ["replay"] + bridge + ["--timezone", "America/New_York"], environment: ["TZ": "Asia/Tokyo"])
        #expect(lines(newYork, "approach").first?.hasPrefix("2026-02-03 05:15:36-05:00  approach") == true)

        // Machines read UTC whatever the zone.
        let json = try runGPSFence(["replay"] + bridge + ["--json"], environment: ["TZ": "Asia/Tokyo"])
        #expect(json.stdout.contains(#""type":"approach","time":"2026-02-03T10:15:36.000Z""#))
    }

    /// `--units nautical`: positions as a skipper reads them, degrees and decimal minutes with the
    /// hemisphere; JSON keeps decimal degrees.
    @Test func nauticalPositionsInDegreesAndMinutes() throws {
        let json = try runGPSFence(["replay"] + bridge + ["--json", "--heartbeat", "60"])
        let heartbeat = try #require(
            json.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
                .first { $0["type"] as? String == "heartbeat" })
        let location = try #require(heartbeat["location"] as? [String: Any])
        let lat = try #require(location["lat"] as? Double)
        let lon = try #require(location["lon"] as? Double)
        func dm(_ value: Double, _ width: Int, _ positive: String, _ negative: String) -> String {
            let minutes = (abs(value) * 60 * 1000).rounded() / 1000
            let degrees = Int(minutes / 60)
            return String(format: "%0\(width)d°%06.3f'", degrees, minutes - Double(degrees) * 60)
                + (value < 0 ? negative : positive)
        }
        let nautical = try runGPSFence(["replay"] + bridge + ["--units", "nautical", "--heartbeat", "60"])
        let line = try #require(lines(nautical, "heartbeat").first, "\(nautical.stdout)")
        #expect(line.hasSuffix("at \(dm(lat, 2, "N", "S")) \(dm(lon, 3, "E", "W"))"), "\(line)")
        let metric = try runGPSFence(["replay"] + bridge + ["--heartbeat", "60"])
        #expect(lines(metric, "heartbeat").first?.contains("at \(lat), \(lon)") == true, "\(metric.stdout)")
    }

    @Test func anUnknownZoneOrUnitIsRefusedByName() throws {
        let zone = try runGPSFence(["replay"] + bridge + ["--timezone", "Mars/Olympus_Mons"])
        #expect(zone.status == 2)
        #expect(
            zone.stderr.contains(
                "--timezone wants a time zone this system knows (an IANA name like Europe/Berlin), not 'Mars/Olympus_Mons'"
            ), "\(zone.stderr)")
        let both = try runGPSFence(["status", "--utc", "--timezone", "Europe/Berlin"])
        #expect(both.status == 2)
        let units = try runGPSFence(["replay"] + bridge + ["--units", "furlongs"])
        #expect(units.status == 2)
        #expect(
            units.stderr.contains("--units must be metric, imperial or nautical, not 'furlongs'"), "\(units.stderr)")
    }

    /// The bridge is named 10'6" but its file says 3.2 m, which is 10'5.98": a clearance is shown
    /// rounded down, `10'5"` (never `10'6"`, 3.2004 m, more room than the file gives); it is 1588 m
    /// (0.99 mi) ahead at the approach.
    @Test func heightsAndDistancesInFeetAndMiles() throws {
        let tall = try runGPSFence(["replay"] + bridge + ["--units", "imperial", "--vehicle-height", #"11'6""#])
        #expect(tall.status == 0, "\(tall.stderr)")
        let approach = try #require(lines(tall, "approach").first)
        #expect(approach.contains(#"TOO LOW: clearance 10'5", 0.99 mi ahead"#), "\(approach)")

        let low = try runGPSFence(["replay"] + bridge + ["--vehicle-height", "10 ft"])
        #expect(low.status == 0)
        let metric = try #require(lines(low, "approach").first)
        #expect(!metric.contains("TOO LOW"), "10 ft is below the bridge")
        #expect(metric.contains("1588 m ahead"), "metric by default")

        let inches = try runGPSFence(["replay"] + bridge + ["--vehicle-height", "130 in"])
        #expect(lines(inches, "approach").first?.contains("TOO LOW: clearance 3.2 m") == true)

        let bad = try runGPSFence(["replay"] + bridge + ["--vehicle-height", "11 feet 13"])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains("--vehicle-height wants a height like 3.2") && bad.stderr.contains("not '11 feet 13'"),
            "\(bad.stderr)")
    }

    /// A fence file whose clearance is written as the sign says it.
    @Test func aClearanceWrittenInFeet() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        let text = try String(contentsOfFile: packageRoot.path + "/captures/bridge/fences.geojson", encoding: .utf8)
        try text.replacingOccurrences(of: #""clearance": 3.2"#, with: #""clearance": "13'6\"""#)
            .write(to: fences, atomically: true, encoding: .utf8)
        let capture = ["captures/bridge/capture.nmea", "--fences", fences.path]
        let tall = try runGPSFence(["replay"] + capture + ["--vehicle-height", "4.2 m", "--units", "imperial"])
        #expect(tall.status == 0, "\(tall.stderr)")
        #expect(lines(tall, "approach").first?.contains(#"TOO LOW: clearance 13'6""#) == true, "\(tall.stdout)")
        let fits = try runGPSFence(["replay"] + capture + ["--vehicle-height", #"13'5""#])
        #expect(lines(fits, "approach").first.map { !$0.contains("TOO LOW") } == true)

        try text.replacingOccurrences(of: #""clearance": 3.2"#, with: #""clearance": "thirteen feet""#)
            .write(to: fences, atomically: true, encoding: .utf8)
        let bad = try runGPSFence(["replay"] + capture)
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("bridge-1"), "\(bad.stderr)")
        #expect(bad.stderr.contains("clearance 'thirteen feet' is not a height"), "\(bad.stderr)")
    }

    /// The bridge from a spreadsheet: its clearance cell says 10'6" as the sign does.
    @Test func aClearanceInFeetFromCSV() throws {
        let fences = temporaryDirectory().appendingPathComponent("bridge.csv")
        try "id,name,lat,lon,radius,approach,clearance\nbridge-1,Low bridge,42.280597,-83.751891,12,1609.344,10'6\"\n"
            .write(to: fences, atomically: true, encoding: .utf8)
        let capture = ["captures/bridge/capture.nmea", "--fences", fences.path]
        let truck = try runGPSFence(["replay"] + capture + ["--vehicle-height", #"11'6""#, "--units", "imperial"])
        #expect(truck.status == 0, "\(truck.stderr)")
        #expect(lines(truck, "approach").first?.contains(#"TOO LOW: clearance 10'6""#) == true, "\(truck.stdout)")
        let van = try runGPSFence(["replay"] + capture + ["--vehicle-height", "10 ft 5 in"])
        #expect(van.status == 0, "\(van.stderr)")
        #expect(lines(van, "approach").first.map { !$0.contains("TOO LOW") } == true, "\(van.stdout)")
    }

    /// `status` in the user's zone and units; its JSON stays UTC.
    @Test func statusInTheUsersZoneAndUnits() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay"] + bridge + ["--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        // The capture's last fix is at 10:17:00Z: 05:17:00 in New York.
        let text = try runGPSFence(["status", "--state", state], environment: ["TZ": "America/New_York"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("last fix       2026-02-03 05:17:00-05:00"), "\(text.stdout)")
        let utc = try runGPSFence(["status", "--state", state, "--utc"], environment: ["TZ": "America/New_York"])
        #expect(utc.stdout.contains("last fix       2026-02-03 10:17:00Z"), "\(utc.stdout)")
        // The diner is 1.33 km past the bridge's end of the drive at the last fix: feet and miles.
        let imperial = try runGPSFence(["status", "--state", state, "--units", "imperial"])
        #expect(imperial.stdout.contains(" mi away") || imperial.stdout.contains(" ft away"), "\(imperial.stdout)")
        #expect(!imperial.stdout.contains(" m away"), "\(imperial.stdout)")
        let json = try runGPSFence(["status", "--state", state, "--json"], environment: ["TZ": "America/New_York"])
        #expect(json.stdout.contains(#""time":"2026-02-03T10:17:00.000Z""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""timezone":"America/New_York""#), "the zone of odometer_today")
    }

    /// The track sync's `odometer` is the metres of each point's local day: in Pago Pago (UTC-11)
    /// the day turns at 11:00Z, in the middle of this drive of 10 m a second from 10:58Z to 11:02Z.
    @Test func theTrackSyncOdometerRestartsAtLocalMidnight() throws {
        let folder = temporaryDirectory()
        let start = 1_770_116_280  // 2026-02-03T10:58:00Z
        let capture = folder.appendingPathComponent("drive.nmea")
        try walkCapture((0...240).map { (start + $0, 10 * Double($0)) }, lat: 47, lon: 8)
            .write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("far.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"far","geometry":{"type":"Point","coordinates":[9,48]},"properties":{"radius":40}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        func odometers(_ zone: [String]) throws -> [Int64: Double] {
            let server = try SyncCommandTests.SyncServer(folder: folder)
            let state = folder.appendingPathComponent("state-\(UUID().uuidString).sqlite").path
            let result = try runGPSFence(
                ["replay", capture.path, "--fences", fences.path, "--state", state, "--sync", server.url] + zone)
            #expect(result.status == 0, "\(result.stderr)")
            var byTime: [Int64: Double] = [:]
            for request in server.requests where SyncCommandTests.SyncServer.accepted(request) {
                guard let body = request["body"] as? String,
                    let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                    let locations = object["locations"] as? [[String: Any]]
                else { continue }
                for location in locations {
                    if let id = (location["id"] as? NSNumber)?.int64Value, let metres = location["odometer"] as? Double
                    {
                        byTime[id / 1000 - Int64(start)] = metres
                    }
                }
            }
            return byTime
        }
        let local = try odometers(["--timezone", "Pacific/Pago_Pago"])
        #expect(local.count == 241)
        #expect(abs((local[119] ?? 0) - 1190) < 15, "23:59:59 local: \(local[119] ?? -1)")
        #expect((local[120] ?? -1) == 0, "the first point of the new day")
        #expect(abs((local[240] ?? 0) - 1200) < 15, "\(local[240] ?? -1)")
        let utc = try odometers(["--utc"])
        #expect(abs((utc[240] ?? 0) - 2400) < 15, "one UTC day: \(utc[240] ?? -1)")
    }

    /// The field report's page in the reader's zone and units; its GPX keeps UTC.
    @Test func theReportInTheUsersZoneAndUnits() throws {
        let folder = temporaryDirectory()
        let html = folder.appendingPathComponent("report.html").path
        let gpx = folder.appendingPathComponent("report.gpx").path
        let result = try runGPSFence(
            ["report"] + bridge + ["--output", html, "--gpx", gpx, "--vehicle-height", "3.5", "--units", "imperial"],
            environment: ["TZ": "America/New_York"])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.contains("<th>time (America/New_York)</th>"))
        #expect(page.contains("<td>2026-02-03 05:15:36-05:00</td>"), "the approach's row")
        #expect(page.contains("0.99 mi ahead"))
        #expect(page.contains(" mph"))
        #expect(!page.contains("m/s"))
        let track = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(track.contains("<time>2026-02-03T10:15:36.000Z</time>"))
    }

    /// `status --watch` off a terminal prints its frames one after another: the clock and the
    /// recent events in the user's zone, the motion in their units.
    @Test func theLiveViewInTheUsersZoneAndUnits() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay"] + bridge + ["--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        let watch = try BackgroundGPSFence(
            ["status", "--watch", "--state", state, "--units", "imperial"], environment: ["TZ": "Asia/Tokyo"])
        let frame = firstFrame(watch.output)
        watch.process.interrupt()
        watch.process.waitUntilExit()
        // The enter is at 10:16:40Z: 19:16:40 in Tokyo. The replay has ended: no motion is shown
        // as current, and the bridge 488 m away is 0.3 miles away.
        #expect(frame.contains("    19:16:40+09:00  enter"), "\(frame)")
        #expect(frame.contains("no current motion"), "\(frame)")
        #expect(frame.contains("0.3 mi away"), "\(frame)")
        #expect(frame.contains("+09:00   every 1 s"), "\(frame)")
    }

    /// What a stream holds up to its first blank line (the end of `status --watch`'s first frame).
    func firstFrame(_ pipe: Pipe) -> String {
        var text = ""
        let handle = pipe.fileHandleForReading
        while true {
            if let events = text.range(of: "recent events"),
                let end = text.range(of: "\n\n", range: events.upperBound..<text.endIndex)
            {
                return String(text[..<end.lowerBound])
            }
            let data = handle.availableData
            if data.isEmpty { return text }
            text += String(decoding: data, as: UTF8.self)
        }
    }

    /// A gym visit at 20:30 in New York on 28 February (01:30Z on 1 March) is a February visit there.
    @Test func aVisitIsCountedInTheLocalMonth() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("gym.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"gym","geometry":{"type":"Point","coordinates":[-74.006,40.7128]},"properties":{"name":"Gym","radius":40}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let capture = folder.appendingPathComponent("visit.nmea")
        // 2026-03-01T01:29:45Z on: in from 100 m west at 2 m/s, 70 s at the centre, out again.
        let start = 1_772_328_585
        let track = (0...200).map { second -> (Int, Double) in
            let east = second <= 50 ? -100 + 2 * Double(second) : second <= 120 ? 0 : -2 * Double(second - 120)
            return (start + second, east)
        }
        try walkCapture(track, lat: 40.7128, lon: -74.006).write(to: capture, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(
            ["replay", capture.path, "--fences", fences.path, "--state", state], environment: ["TZ": "America/New_York"]
        )
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains("2026-02-28 20:30:"), "enter at 20:30 local: \(replay.stdout)")

        func perDay(_ arguments: [String]) throws -> [Int]? {
            let result = try runGPSFence(
                ["visits", "--state", state, "--json"] + arguments, environment: ["TZ": "America/New_York"])
            #expect(result.status == 0, "\(result.stderr)")
            let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (report?["fences"] as? [[String: Any]])?.first?["per_day"] as? [Int]
        }
        let february = try #require(try perDay(["--month", "2", "--year", "2026"]))
        #expect(february.count == 28)
        #expect(february[27] == 1, "on the 28th")
        #expect(try perDay(["--month", "3", "--year", "2026"]) == nil, "no March visit in New York")
        #expect(try perDay(["--month", "3", "--year", "2026", "--utc"])?[0] == 1, "in UTC it is 1 March")
        #expect(try perDay(["--month", "2", "--year", "2026", "--utc"]) == nil)
        let tokyo = try perDay(["--month", "3", "--year", "2026", "--timezone", "Asia/Tokyo"])
        #expect(tokyo?[0] == 1, "10:30 on 1 March in Tokyo")

        let text = try runGPSFence(
            ["visits", "--state", state, "--month", "2", "--year", "2026"], environment: ["TZ": "America/New_York"])
        #expect(text.stdout.contains("Gym [gym] — February 2026 (days in America/New_York)"), "\(text.stdout)")
    }

    /// "Odometer today" restarts at the local midnight: 1 km driven before New York's last
    /// midnight and 600 m after it read 600 m today there.
    @Test func theOdometerRestartsAtLocalMidnight() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        var now = Date()
        var midnight = calendar.startOfDay(for: now)
        // The drive after midnight must be over by now.
        if now.timeIntervalSince(midnight) < 200 {
            // A time of the wall clock, not a state: past 200 s after the local midnight.
            Thread.sleep(forTimeInterval: 200 - now.timeIntervalSince(midnight))
            now = Date()
            midnight = calendar.startOfDay(for: now)
        }
        let m = Int(midnight.timeIntervalSince1970)
        // 50 s at 20 m/s ending 60 s before midnight, parked across it, 30 s at 20 m/s after.
        var track: [(Int, Double)] = (0...50).map { (m - 110 + $0, 20 * Double($0)) }
        track += (1...119).map { (m - 60 + $0, 1000) }
        track += (1...30).map { (m + 59 + $0, 1000 + 20 * Double($0)) }
        let folder = temporaryDirectory()
        let capture = folder.appendingPathComponent("drive.nmea")
        try walkCapture(track, lat: 40.7128, lon: -74.006).write(to: capture, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("far.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"far","geometry":{"type":"Point","coordinates":[-74.1,40.8]},"properties":{"radius":40}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(
            ["replay", capture.path, "--fences", fences.path, "--state", state],
            environment: ["TZ": "America/New_York"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let status = try runGPSFence(["status", "--state", state, "--json"], environment: ["TZ": "America/New_York"])
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let today = try #require(object?["odometer_today"] as? Double, "\(status.stdout)")
        #expect(abs(today - 600) < 20, "\(today) m today in New York")
        let text = try runGPSFence(
            ["status", "--state", state, "--units", "imperial"], environment: ["TZ": "America/New_York"])
        // 600 m is 0.37 mi.
        #expect(text.stdout.contains("odometer today 0.37 mi"), "\(text.stdout)")
    }
}

/// A capture of one GGA and one RMC a second, walking due east of (`lat`, `lon`) by the metres
/// given at each UTC second (seconds since 1970).
func walkCapture(_ track: [(second: Int, east: Double)], lat: Double, lon: Double) -> String {
    func checksummed(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + String(format: "%02X", sum)
    }
    var text = ""
    var previous: Double?
    for (second, east) in track {
        let longitude = lon + east / (111_320 * cos(lat * .pi / 180))
        let date = Date(timeIntervalSince1970: TimeInterval(second))
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = String(format: "%02d%02d%02d.000", parts.hour!, parts.minute!, parts.second!)
        let day = String(format: "%02d%02d%02d", parts.day!, parts.month!, parts.year! % 100)
        let latText = String(format: "%02d%07.4f,N", Int(lat), (lat - Double(Int(lat))) * 60)
        let absLon = abs(longitude)
        let lonText = String(
            format: "%03d%07.4f,%@", Int(absLon), (absLon - Double(Int(absLon))) * 60, longitude < 0 ? "W" : "E")
        let knots = abs(east - (previous ?? east)) * 3600 / 1852
        previous = east
        text += checksummed("GPGGA,\(time),\(latText),\(lonText),1,08,0.9,10.0,M,-34.0,M,,") + "\r\n"
        text +=
            checksummed("GPRMC,\(time),A,\(latText),\(lonText),\(String(format: "%.3f", knots)),90.00,\(day),,,A")
            + "\r\n"
    }
    return text
}
