import Foundation
import Testing

/// The fence rules of docs/fences.md ("Rules") through the real binary's `replay` (and `check`), on
/// captures written here: a drive east along 47° N, positions and speeds computed from the
/// scenario, so that each expected event follows from the arithmetic in the test.
@Suite struct FenceRulesTests {
    static let earthRadius = 6_371_008.8
    static let latitude = 47.0
    static let longitude = 8.0

    /// One fix: `second` after `start` (seconds of the UTC day), `east` metres east of
    /// (47° N, 8° E) along the parallel, at `speed` m/s heading east.
    struct Step {
        var second: Int
        var east: Double
        var speed: Double
    }

    /// The capture of `steps` on `date` (`ddmmyy`), RMC + GGA per fix.
    static func capture(_ steps: [Step], date: String, start: Int, in folder: URL) throws -> String {
        func checksummed(_ body: String) -> String {
            String(format: "$%@*%02X\r\n", body, body.utf8.reduce(0) { $0 ^ $1 })
        }
        func minutes(_ degrees: Double, width: Int) -> String {
            let whole = Int(degrees)
            return String(format: "%0\(width)d%08.5f", whole, (degrees - Double(whole)) * 60)
        }
        var text = ""
        for step in steps {
            let clock = start + step.second
            let time = String(format: "%02d%02d%02d.00", clock / 3600, clock / 60 % 60, clock % 60)
            let lon = longitude + step.east / (earthRadius * cos(latitude * .pi / 180)) * 180 / .pi
            let lat = minutes(latitude, width: 2)
            let lonText = minutes(lon, width: 3)
            let knots = String(format: "%.4f", step.speed / 0.514444)
            text += checksummed("GPGGA,\(time),\(lat),N,\(lonText),E,1,09,0.9,400.0,M,47.0,M,,")
            text += checksummed("GPRMC,\(time),A,\(lat),N,\(lonText),E,\(knots),90.0,\(date),,,A")
        }
        let file = folder.appendingPathComponent("drive-\(date)-\(start).nmea")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// A fence file of circles centred `east` metres along the drive.
    static func fences(_ circles: [(id: String, east: Double, radius: Double, rules: String)], in folder: URL) throws
        -> String
    {
        let features = circles.map { circle in
            let lon = longitude + circle.east / (earthRadius * cos(latitude * .pi / 180)) * 180 / .pi
            return #"{"type":"Feature","id":"\#(circle.id)","geometry":{"type":"Point","coordinates":["#
                + "\(lon),\(latitude)]},\"properties\":{\"radius\":\(circle.radius)\(circle.rules)}}"
        }
        let file = folder.appendingPathComponent("fences-\(UUID().uuidString).geojson")
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
            .write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func folder() throws -> URL {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func events(_ arguments: [String], environment: [String: String] = [:]) throws -> [[String: Any]] {
        let result = try runGPSFence(arguments + ["--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// `type@HH:MM:SS` of the fence events (and unregistered), for comparing whole sequences.
    static func summary(_ events: [[String: Any]], types: Set<String>) -> [String] {
        events.compactMap { event in
            guard let type = event["type"] as? String, types.contains(type), let time = event["time"] as? String
            else { return nil }
            return type + "@" + time.dropFirst(11).prefix(8)
        }
    }

    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    // MARK: - delay

    /// A mooring of 30 m with `delay` 20 s and no hysteresis (the exit distance is then the fix's
    /// accuracy, HDOP 0.9 x 5 m = 4.5 m), a fix a second: the boat 10 m beyond it from 10 s to
    /// 25 s (16 fixes, 15 s) says nothing; beyond again from 40 s, the exit is told at 60 s, the
    /// first fix 20 s after the first one beyond. Without the delay, the first excursion is an
    /// exit at its second fix (11 s).
    @Test func aDelayHoldsTheExitUntilTheReceiverHasStayedOut() throws {
        let folder = try Self.folder()
        let steps = (0...70).map { second in
            Step(second: second, east: (10...25).contains(second) || second >= 40 ? 40 : 5, speed: 0)
        }
        let capture = try Self.capture(steps, date: "030226", start: 36_000, in: folder)
        let delayed = try Self.fences([("mooring", 0, 30, #","hysteresis":0,"delay":20"#)], in: folder)
        let events = try Self.events(["replay", capture, "--fences", delayed, "--stationary", "0"])
        #expect(Self.summary(events, types: ["enter", "exit"]) == ["enter@10:00:00", "exit@10:01:00"])
        let plain = try Self.fences([("mooring", 0, 30, #","hysteresis":0"#)], in: folder)
        let undelayed = try Self.events(["replay", capture, "--fences", plain, "--stationary", "0"])
        #expect(Self.summary(undelayed, types: ["enter", "exit"]).prefix(2) == ["enter@10:00:00", "exit@10:00:11"])
    }

    // MARK: - active

    /// A gym open in the morning only, `Mo-Fr 06:00-12:00` in Europe/Berlin, and a receiver that
    /// stays in it from 03:50 to 11:10 UTC, a fix a minute. Berlin is UTC+1 in February and
    /// UTC+2 (summer time, from the last Sunday in March) in July, so the gym opens at 05:00 UTC
    /// on Tuesday 3 February and at 04:00 UTC on Tuesday 7 July, and closes at 11:00 and 10:00
    /// UTC. Opening with the receiver inside is an initial enter; dwell (60 s) follows one fix
    /// later; closing says nothing (no exit). On Sunday 8 February it never opens.
    @Test(arguments: [("030226", 5), ("070726", 4), ("080226", nil)] as [(String, Int?)])
    func aGymCountsOnlyInItsOpeningHours(date: String, opensAtUTCHour: Int?) throws {
        let folder = try Self.folder()
        let start = 3 * 3600 + 50 * 60
        let steps = (0...440).map { Step(second: $0 * 60, east: 5, speed: 0) }
        let capture = try Self.capture(steps, date: date, start: start, in: folder)
        let fences = try Self.fences(
            [("gym", 0, 40, #","active":"Mo-Fr 06:00-12:00","timezone":"Europe/Berlin""#)], in: folder)
        let events = try Self.events(["replay", capture, "--fences", fences, "--stationary", "0"])
        let fenceEvents = events.filter { $0["fence"] != nil }
        guard let hour = opensAtUTCHour else {
            #expect(fenceEvents.isEmpty, "closed all Sunday: \(fenceEvents)")
            return
        }
        let opens = hour * 3600
        #expect(
            Self.summary(events, types: ["enter", "exit", "dwell", "unregistered"])
                == ["enter@" + Self.clock(opens), "dwell@" + Self.clock(opens + 60)])
        #expect(fenceEvents.first?["initial"] as? Bool == true)
    }

    /// The same gym without a `timezone`, read in UTC (`--utc`), with the evening closed by a later rule: `Mo-Fr
    /// 06:00-12:00; Tu off` closes it all Tuesday. And a range past midnight, `Mo 23:00-01:00`,
    /// holds on Tuesday 00:30 (the Monday's range) but not on Tuesday 01:30.
    @Test func laterRulesReplaceEarlierOnesAndRangesRunPastMidnight() throws {
        let folder = try Self.folder()
        let steps = (0...3).map { Step(second: $0 * 60, east: 5, speed: 0) }
        for (start, rule, open) in [
            (6 * 3600, "Mo-Fr 06:00-12:00; Tu off", false), (6 * 3600, "Mo-Fr 06:00-12:00", true),
            (30 * 60, "Mo 23:00-01:00", true), (90 * 60, "Mo 23:00-01:00", false),
        ] {
            let capture = try Self.capture(steps, date: "030226", start: start, in: folder)
            let fences = try Self.fences([("gym", 0, 40, #","active":"\#(rule)""#)], in: folder)
            let entered = try Self.events(["replay", capture, "--fences", fences, "--utc"]).contains {
                $0["type"] as? String == "enter"
            }
            #expect(entered == open, "\(rule) at \(Self.clock(start))")
        }
    }

    /// A gym without a `timezone`, `Mo-Fr 06:00-12:00`, is open in the user's zone: on Tuesday 3
    /// February at 05:30 UTC (06:30 in Berlin, UTC+1) it is open with `--timezone Europe/Berlin`
    /// or `TZ=Europe/Berlin` and closed in UTC; at 11:30 UTC (12:30 in Berlin) the other way round.
    /// The receiver stays in it for three minutes, a fix a minute.
    @Test func aFenceWithoutATimezoneCountsInTheUsersZone() throws {
        let folder = try Self.folder()
        let steps = (0...3).map { Step(second: $0 * 60, east: 5, speed: 0) }
        let fences = try Self.fences([("gym", 0, 40, #","active":"Mo-Fr 06:00-12:00""#)], in: folder)
        for (start, zone, environment, open) in [
            (5 * 3600 + 1800, ["--timezone", "Europe/Berlin"], [:], true),
            (5 * 3600 + 1800, [], ["TZ": "Europe/Berlin"], true),
            (5 * 3600 + 1800, ["--utc"], [:], false),
            (11 * 3600 + 1800, ["--timezone", "Europe/Berlin"], [:], false),
            (11 * 3600 + 1800, ["--utc"], [:], true),
        ] as [(Int, [String], [String: String], Bool)] {
            let capture = try Self.capture(steps, date: "030226", start: start, in: folder)
            let result = try runGPSFence(
                ["replay", capture, "--fences", fences, "--json"] + zone, environment: environment)
            #expect(result.status == 0, "\(result.stderr)")
            let entered = result.stdout.contains(#""type":"enter""#)
            #expect(entered == open, "\(Self.clock(start)) UTC with \(zone) \(environment)")
        }
    }

    // MARK: - expires

    /// Roadworks, a circle of 490 m at 1000 m east of the start, expiring at 10:01:00 UTC; the
    /// car drives east at 20 m/s from 10:00:00, one fix a second: it is at -1000 + 20 t from the
    /// centre, inside from t = 26 (-480 m; t = 25 is -500 m, outside) and would leave at t = 75
    /// (+500 m). The fence expires at t = 60 with the car inside: `exit` with reason `expired`
    /// and `unregistered` at 10:01:00, and nothing of that fence after. The same instant written
    /// with an offset (`11:01+01:00`) or in the fence's zone (`11:01`, Europe/Berlin in
    /// February) gives the same events; so does a time without offset or `timezone`, read in the
    /// user's zone: `11:01` with `--timezone Europe/Berlin` or `TZ=Europe/Berlin`, `10:01` with
    /// `--utc`. A second fence further on, without rules, is untouched.
    @Test(
        arguments: [
            (#""expires":"2026-02-03T10:01:00Z""#, [], [:]), (#""expires":"2026-02-03T11:01+01:00""#, [], [:]),
            (#""expires":"2026-02-03T11:01:00","timezone":"Europe/Berlin""#, ["--utc"], [:]),
            (#""expires":"2026-02-03T11:01:00""#, ["--timezone", "Europe/Berlin"], [:]),
            (#""expires":"2026-02-03T11:01""#, [], ["TZ": "Europe/Berlin"]),
            (#""expires":"2026-02-03T10:01:00""#, ["--utc"], ["TZ": "Europe/Berlin"]),
        ] as [(String, [String], [String: String])])
    func aZoneThatExpiresMidDrive(expires: String, zone: [String], environment: [String: String]) throws {
        let folder = try Self.folder()
        let steps = (0...120).map { Step(second: $0, east: 20 * Double($0), speed: 20) }
        let capture = try Self.capture(steps, date: "030226", start: 10 * 3600, in: folder)
        let fences = try Self.fences(
            [("roadworks", 1000, 490, "," + expires), ("depot", 2000, 100, "")], in: folder)
        let events = try Self.events(
            ["replay", capture, "--fences", fences, "--dwell", "600"] + zone, environment: environment)
        #expect(
            Self.summary(events, types: ["enter", "exit", "unregistered"])
                == [
                    "enter@10:00:26", "exit@10:01:00", "unregistered@10:01:00",
                    // depot: -2000 + 20 t within 100 m from t = 95, out by more than 10 m from
                    // t = 106 (+120 m), confirmed on the second fix, t = 107.
                    "enter@10:01:35", "exit@10:01:47",
                ])
        let exit = try #require(events.first { $0["type"] as? String == "exit" })
        #expect(exit["reason"] as? String == "expired")
        #expect((exit["fence"] as? [String: Any])?["id"] as? String == "roadworks")
        let unregistered = try #require(events.first { $0["type"] as? String == "unregistered" })
        #expect(unregistered["fences"] as? [String] == ["roadworks"])
        let laterExit = events.last { $0["type"] as? String == "exit" }
        #expect(laterExit?["reason"] == nil, "a depot exit by driving out has no reason")
    }

    // MARK: - speed_limit

    /// A yard with `speed_limit_kmh: 5` (1.389 m/s; re-armed below 90 %, 1.25 m/s) and a vehicle
    /// inside whose speeds are listed per fix. With 3 confirming fixes: fixes 1-3 are above, so
    /// `speeding` at fix 3; fix 6 (1.3 m/s) is below the limit but not below 1.25, so 7-9 raise
    /// nothing; fix 10 (1.0) re-arms, and 11-13 raise it again at 13. With `--speeding-confirm 1`
    /// the first fix above raises it: fixes 1 and 11.
    @Test(arguments: [(nil, [3, 13]), ("1", [1, 11])] as [(String?, [Int])])
    func aYardAtFiveKilometresAnHour(confirm: String?, expected: [Int]) throws {
        let folder = try Self.folder()
        let speeds = [1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 1.3, 2.0, 2.0, 2.0, 1.0, 2.0, 2.0, 2.0, 2.0]
        let steps = speeds.enumerated().map { Step(second: $0.offset, east: Double($0.offset), speed: $0.element) }
        let capture = try Self.capture(steps, date: "030226", start: 9 * 3600, in: folder)
        let fences = try Self.fences([("yard", 0, 200, #","speed_limit_kmh":5"#)], in: folder)
        var arguments = ["replay", capture, "--fences", fences]
        if let confirm { arguments += ["--speeding-confirm", confirm] }
        let speeding = try Self.events(arguments).filter { $0["type"] as? String == "speeding" }
        #expect(
            speeding.map { $0["time"] as? String }
                == expected.map { "2026-02-03T09:00:\(String(format: "%02d", $0)).000Z" })
        for event in speeding {
            #expect(abs((event["limit"] as? Double ?? 0) - 5 / 3.6) < 0.01)
            #expect(abs((event["speed"] as? Double ?? 0) - 2.0) < 0.01)
        }
    }

    /// Inside a yard (limit 3 m/s) and a loading lane within it (limit 1 m/s) at 4 m/s: one
    /// `speeding`, reporting the lane's stricter limit.
    @Test func overlappingFencesReportTheStrictestLimit() throws {
        let folder = try Self.folder()
        let steps = (0..<5).map { Step(second: $0, east: Double($0), speed: 4) }
        let capture = try Self.capture(steps, date: "030226", start: 9 * 3600, in: folder)
        let fences = try Self.fences(
            [("yard", 0, 200, #","speed_limit":3"#), ("lane", 0, 50, #","speed_limit":1"#)], in: folder)
        let speeding = try Self.events(["replay", capture, "--fences", fences]).filter {
            $0["type"] as? String == "speeding"
        }
        #expect(speeding.count == 1)
        #expect((speeding.first?["fence"] as? [String: Any])?["id"] as? String == "lane")
        #expect(speeding.first?["limit"] as? Double == 1)
        #expect(speeding.first?["time"] as? String == "2026-02-03T09:00:02.000Z")
    }

    // MARK: - clearance

    /// The bundled bridge (clearance 3.2 m, 10'6"): a 3.5 m truck gets its approach and enter
    /// flagged `too_low`; a 3.0 m van, or no height at all, gets the same events unflagged.
    @Test(arguments: [("3.5", true), ("3.0", false), (nil, false)] as [(String?, Bool)])
    func theBridgeWithTwoVehicleHeights(height: String?, flagged: Bool) throws {
        var arguments = ["replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson"]
        if let height { arguments += ["--vehicle-height", height] }
        let events = try Self.events(arguments)
        #expect(
            Self.summary(events, types: ["approach", "enter", "exit"]) == [
                "approach@10:15:36", "enter@10:16:40", "exit@10:16:42",
            ])
        for event in events where ["approach", "enter"].contains(event["type"] as? String) {
            #expect((event["too_low"] as? Bool) == (flagged ? true : nil))
        }
        #expect(events.allSatisfy { $0["type"] as? String == "exit" ? $0["too_low"] == nil : true })
        let human = try runGPSFence(arguments)
        let approach = human.stdout.split(separator: "\n").first { $0.contains("approach") }
        #expect(approach?.contains("TOO LOW: clearance 3.2 m") == flagged)
    }

    /// The same bridge from a CSV file as a spreadsheet writes it (loose header names, a notes
    /// column, a quoted name): its `clearance` and `approach` columns work as the GeoJSON
    /// properties do, and a 3.5 m truck is told it is too high.
    @Test func theBridgeFromASpreadsheetCSV() throws {
        let folder = try Self.folder()
        let fences = folder.appendingPathComponent("bridges.csv")
        try #"""
        ID,Name,Latitude,Longitude,Radius,Notes,clearance,approach
        bridge-1,"Low bridge 10'6"", Main St",42.280597,-83.751891,12,"posted, ""10'6""""",3.2,1609.344
        diner,Roadside diner,42.28239564072745,-83.751891,30,,,500

        """#.write(to: fences, atomically: true, encoding: .utf8)
        let arguments = [
            "replay", "captures/bridge/capture.nmea", "--fences", fences.path, "--vehicle-height", "3.5",
        ]
        let events = try Self.events(arguments)
        #expect(
            Self.summary(events, types: ["approach", "enter", "exit"]) == [
                "approach@10:15:36", "enter@10:16:40", "exit@10:16:42",
            ])
        for event in events where ["approach", "enter"].contains(event["type"] as? String) {
            #expect(event["too_low"] as? Bool == true)
        }
        let human = try runGPSFence(arguments)
        let approach = human.stdout.split(separator: "\n").first { $0.contains("approach") }
        #expect(approach?.contains("TOO LOW: clearance 3.2 m") == true, "\(human.stdout)")
    }

    /// A too_low enter comes first among its fix's events: at the fix where a truck leaves a
    /// checkpoint's circle (exit) it enters an underpass; the enter is printed before the exit.
    @Test func aTooLowEnterComesBeforeTheOtherEventsOfItsFix() throws {
        let folder = try Self.folder()
        // At 10 m/s, x = 10 t. The exit distance is the 10 m hysteresis (the accuracy estimate,
        // HDOP 0.9 x 5 m, is smaller). Checkpoint r = 25 at 0: 5 m out at t = 3, 15 m at t = 4
        // (first fix beyond 10 m), 25 m at t = 5 (second: exit). Underpass r = 5 at 50 m:
        // t = 4 is 5 m short of its edge, t = 5 is its centre (enter).
        let steps = (0...6).map { Step(second: $0, east: 10 * Double($0), speed: 10) }
        let capture = try Self.capture(steps, date: "030226", start: 9 * 3600, in: folder)
        let fences = try Self.fences(
            [("checkpoint", 0, 25, ""), ("underpass", 50, 5, #","clearance":3.0"#)], in: folder)
        let events = try Self.events([
            "replay", capture, "--fences", fences, "--vehicle-height", "4", "--no-initial",
        ])
        #expect(Self.summary(events, types: ["enter", "exit"]) == ["enter@09:00:05", "exit@09:00:05"])
        #expect(events.first { $0["type"] as? String == "enter" }?["too_low"] as? Bool == true)
    }

    /// The field report shows what the rules raised: the yard's `speeding` (with its colour and
    /// its column in the fence table) and the bridge's flag for a 3.5 m truck.
    @Test func theFieldReportShowsSpeedingAndTooLow() throws {
        let folder = try Self.folder()
        let steps = (0..<5).map { Step(second: $0, east: Double($0), speed: 4) }
        let capture = try Self.capture(steps, date: "030226", start: 9 * 3600, in: folder)
        let fences = try Self.fences([("yard", 0, 200, #","speed_limit":3"#)], in: folder)
        let yard = folder.appendingPathComponent("yard.html").path
        let bridge = folder.appendingPathComponent("bridge.html").path
        for arguments in [
            ["report", capture, "--fences", fences, "--output", yard],
            [
                "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson",
                "--vehicle-height", "3.5", "--output", bridge,
            ],
        ] {
            let result = try runGPSFence(arguments)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let yardHTML = try String(contentsOfFile: yard, encoding: .utf8)
        #expect(yardHTML.contains("chip ev-speeding"))
        #expect(yardHTML.contains("<th>speeding</th>"))
        // A limit of 3 m/s (10.8 km/h) as people read it: rounded down, the speed against it.
        #expect(yardHTML.contains(" km/h in a 10 zone"))
        let bridgeHTML = try String(contentsOfFile: bridge, encoding: .utf8)
        #expect(bridgeHTML.components(separatedBy: "TOO LOW for the vehicle").count - 1 == 2, "approach and enter")
    }

    // MARK: - refused rules

    /// A malformed rule refuses the file, naming the feature and the reason, with status 2, in
    /// `check` as in `replay`.
    @Test(arguments: [
        (#""active":"Mo-Fx 06:00-12:00""#, "'Fx' is not a day"),
        (#""active":"Mo 25:00-26:00""#, "starts after 24:00"),
        (#""active":"Mo 06:00""#, "not a time range"),
        (#""active":"Mo 06:00-12:00","timezone":"Mars/Olympus""#, "unknown time zone 'Mars/Olympus'"),
        (#""active":"Mo 06:00-12:00","timezone":"../etc/passwd""#, "not a time zone name"),
        (#""expires":"next friday""#, "not an ISO 8601 time"),
        (#""speed_limit":-1"#, "speed_limit"),
        (#""speed_limit":2,"speed_limit_kmh":7"#, "give one of them"),
        (#""clearance":"low""#, "clearance"),
    ])
    func malformedRulesRefuseTheFile(rule: String, reason: String) throws {
        let folder = try Self.folder()
        let fences = try Self.fences([("ok", 0, 10, ""), ("bad", 0, 10, "," + rule)], in: folder)
        let capture = try Self.capture([Step(second: 0, east: 0, speed: 0)], date: "030226", start: 0, in: folder)
        for arguments in [["check", "--fences", fences, "47", "8"], ["replay", capture, "--fences", fences]] {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments[0]) \(rule): \(result.stderr)")
            #expect(result.stderr.contains("feature 1 (id \"bad\")"), "\(result.stderr)")
            #expect(result.stderr.contains(reason), "\(result.stderr)")
        }
    }
}
