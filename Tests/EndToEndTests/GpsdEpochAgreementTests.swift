import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// The same fence events through gpsd as from the port (docs/running.md, "One fix per epoch"):
/// Debian's real gpsd, fed each shared receiver log through a pseudo-terminal, and `gpsfence run
/// --device gpsd://` behind it give the events of `replay` of the same bytes, with accuracy out of
/// play, for fences laid along the log's own track (`TrackFences`). gpsd reports several TPVs for
/// one epoch on many of these logs, and its positions carry 9 decimals: counted per report, exit
/// confirmation and dwell would fire early, and decided on unrounded positions, a fence edge on a
/// printed position would contain a fix on one path only. Logs run two at a time (one gpsd each),
/// which fits two cores.
@Suite struct GpsdEpochAgreementTests {
    static let folder = packageRoot.appendingPathComponent("../shared/captures/gpsd").standardized

    static var logs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".log") }
            .sorted()
    }

    /// Logs on which gpsd drops or alters data that replay has, so that their events cannot agree
    /// (docs/hardware.md lists them with the same reasons). Each must still differ: one that
    /// agrees has lost its reason.
    static let gpsdDiffers = [
        "beidou-bd.log": undatedFirstFix,
        "blumax-gps009.log":
            "its first fix (14:28:19.299) stands alone before a 2.5-minute gap; gpsd, still probing the SiRF receiver, never reports it, so the fences replay starts in at that fix, and the dwells counted from it, have no counterpart",
        "furuno_gl_ga.log":
            "read live, gpsd reports every cycle after the first as mode 1 without a position (one TPV per cycle, at its end), where replay has a fix every second: replay's dwells have no counterpart",
        "geos-1m.log": undatedFirstFix,
        "magellan315.log":
            "the receiver stamps GLL 12:08:27.523 and the GGA and RMC of the same cycle 12:08:27.52; replay makes the GLL an epoch of its own, live gpsd reports the cycle once, at .520, so an event at that fix has another time",
        "motorola-t805.log": undatedFirstFix,
        "mtk-3301.log": undatedFirstFix,
    ]

    static let undatedFirstFix =
        "gpsd reports the first cycle with a position before the cycle's RMC has given it a date, in a TPV without a time, and never again with one: gpsfence cannot use a fix without a time, so replay's first fix, and the fences it starts in, have no counterpart"

    /// Accuracy out of play, for gpsd's `eph` and HDOP x UERE never agree: no fence's exit
    /// distance is under the hysteresis of 50 m, the cap on the accuracy estimate, and no fix is
    /// too inaccurate to use (gpsd's first fix of a cycle may carry an `eph` of about 1900 m from
    /// the DOPs of 99.99 of the cycle before).
    static let settings = ["--hysteresis", "50", "--max-accuracy", "100000", "--exit-confirm", "2", "--dwell", "30"]
    static let kinds: Set<String> = ["enter", "exit", "dwell", "visit", "cross"]

    /// Fence events as "type fence time".
    static func fenceEvents(_ lines: [String]) -> [String] {
        events(lines).compactMap { event in
            guard let type = event["type"] as? String, kinds.contains(type) else { return nil }
            let fence = (event["fence"] as? [String: Any])?["id"].map { "\($0)" } ?? "?"
            return "\(type) \(fence) \(event["time"] as? String ?? "?")"
        }
    }

    /// gpsd 3.22 moves the dates of these old logs forward by 1024 weeks when it runs live (its own
    /// rollover rule against its build date); the logs' events are compared in the logs' own era.
    static func sameEra(_ seen: [String], as expected: [String]) -> [String] {
        let period = 1024.0 * 7 * 86_400
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func split(_ event: String) -> (String, Date)? {
            guard let space = event.lastIndex(of: " "),
                let date = format.date(from: String(event[event.index(after: space)...]))
            else { return nil }
            return (String(event[..<space]), date)
        }
        guard let reference = expected.first.flatMap(split)?.1 else { return seen }
        return seen.map { event in
            guard let (head, date) = split(event) else { return event }
            let periods = (date.timeIntervalSince(reference) / period).rounded()
            return head + " " + format.string(from: date.addingTimeInterval(-periods * period))
        }
    }

    /// Fences laid along the log's own track, as `decode` prints it (`TrackFences`), and the time
    /// of its last fix; nil for a log without a dated track.
    static func fences(for log: URL, in directory: URL) throws -> (path: String, lastFix: String)? {
        let decoded = try runGPSFence(["decode", log.path])
        let decodedFixes = events(decoded.stdout.split(separator: "\n").map(String.init))
        let positions = decodedFixes.compactMap { fix -> (lat: Double, lon: Double)? in
            guard fix["time"] is String, let lat = fix["lat"] as? Double, let lon = fix["lon"] as? Double else {
                return nil
            }
            return (lat, lon)
        }
        guard let fences = TrackFences(positions) else { return nil }
        let path = directory.appendingPathComponent("fences.geojson").path
        try fences.geoJSON.write(toFile: path, atomically: true, encoding: .utf8)
        return (path, decodedFixes.last { $0["lat"] is Double }?["time"] as? String ?? "")
    }

    /// The events both paths must agree on. gpsd reports a cycle when the next one begins, so the
    /// log's last epoch never reaches a gpsd client: events at it are left out. gpsd's first fix of
    /// a log may come an epoch after the port's (it is still learning the receiver): the initial
    /// enters, at each path's first fix, are compared without their time.
    static func comparable(_ events: [String], lastFix: String) -> [String] {
        let first = events.first.map { String($0.split(separator: " ").last!) }
        return events.compactMap { event in
            let parts = event.split(separator: " ").map(String.init)
            if parts[2] == lastFix { return nil }
            return parts[2] == first && parts[0] == "enter" ? "\(parts[0]) \(parts[1]) initial" : event
        }
    }

    /// The log's sentences in cycles: a new cycle where a timed sentence brings a new time of day.
    static func cycles(_ sentences: [String]) -> [[String]] {
        var cycles: [[String]] = []
        var current: [String] = []
        var lastTime = ""
        for sentence in sentences {
            let fields = sentence.split(separator: ",", omittingEmptySubsequences: false)
            let type = fields.first.map { String($0.dropFirst(3)) } ?? ""
            let timeField = ["GGA": 1, "RMC": 1, "GNS": 1, "ZDA": 1, "GLL": 5][type]
            if let timeField, fields.count > timeField, !fields[timeField].isEmpty,
                String(fields[timeField]) != lastTime
            {
                if !current.isEmpty { cycles.append(current) }
                current = []
                lastTime = String(fields[timeField])
            }
            current.append(sentence)
        }
        if !current.isEmpty { cycles.append(current) }
        return cycles
    }

    @Test(arguments: logs)
    func gpsdGivesTheFenceEventsOfReplay(log name: String) throws {
        let log = Self.folder.appendingPathComponent(name)
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (fences, lastFix) = try Self.fences(for: log, in: directory) else { return }  // no dated track

        let replayed = try Self.replayEvents(log, fences: fences)
        let expected = Self.comparable(replayed, lastFix: lastFix)
        guard let throughGpsd = try Self.gpsdEvents(log, fences: fences, in: directory) else { return }
        let seen = Self.comparable(Self.sameEra(throughGpsd, as: replayed), lastFix: lastFix)
        if let reason = Self.gpsdDiffers[name] {
            #expect(seen != expected, "\(name) now agrees; no longer: \(reason)")
        } else {
            #expect(seen == expected, "\(name)")
        }
    }

    /// A fence whose edge lies on a position as gpsfence and gpsd print it: the SiRFstar V log's
    /// fix of 02:09:57 is at 4404.1356' N, printed 44.068926667, and a rectangle from that latitude
    /// north contains it, through gpsd (whose TPV says 44.068926667) and from the port alike.
    @Test func aFenceEdgeOnAPrintedPositionContainsItOnBothPaths() throws {
        let log = Self.folder.appendingPathComponent("sirfstarv-nmea.log")
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fences = directory.appendingPathComponent("edge.geojson").path
        try #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"edge","geometry":{"type":"Polygon",
        "coordinates":[[[-121.3145,44.068926667],[-121.3141,44.068926667],[-121.3141,44.069],[-121.3145,44.069],
        [-121.3145,44.068926667]]]},"properties":{}}]}
        """#.write(toFile: fences, atomically: true, encoding: .utf8)

        let replayed = try Self.replayEvents(log, fences: fences)
        #expect(replayed == ["enter edge 2019-02-05T02:09:57.000Z", "dwell edge 2019-02-05T02:10:27.000Z"])
        let throughGpsd = try #require(try Self.gpsdEvents(log, fences: fences, in: directory))
        #expect(Self.sameEra(throughGpsd, as: replayed) == replayed)
    }

    /// `replay`'s fence events for `log`.
    static func replayEvents(_ log: URL, fences: String) throws -> [String] {
        let replay = try runGPSFence(["replay", log.path, "--fences", fences, "--json"] + settings)
        #expect(replay.status == 0, "\(replay.stderr)")
        return fenceEvents(replay.stdout.split(separator: "\n").map(String.init))
    }

    /// The fence events of `gpsfence run` reading a real gpsd that is fed `log` on a pty, one cycle
    /// each 40 ms; nil (an issue recorded) when gpsd never connects.
    static func gpsdEvents(_ log: URL, fences: String, in directory: URL) throws -> [String]? {
        let pty = try NMEAPseudoTerminal()
        let daemon = try GpsdDaemon(port: try freeLoopbackPort(), device: pty.path)
        try warmUp(daemon, pty)
        let run = try BackgroundGPSFence(
            [
                "run", "--device", "gpsd://127.0.0.1:\(daemon.port)" + pty.path, "--fences", fences, "--json",
                "--state", directory.appendingPathComponent("state.sqlite").path,
            ] + settings)
        let output = LineCollector(run.output.fileHandleForReading)
        guard output.sees(timeout: 15, { $0.contains(#""type":"device_connected""#) }) else {
            run.signal(SIGINT)
            Issue.record("\(log.lastPathComponent): no device_connected; stderr: \(run.finish().stderr)")
            return nil
        }
        let sentences = try String(contentsOf: log, encoding: .isoLatin1).split(whereSeparator: \.isNewline)
            .map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        for cycle in cycles(sentences) {
            pty.write(cycle.map { $0 + "\r\n" }.joined())
            usleep(40_000)
        }
        // The last epoch goes out after gpsd's quiet gap; the events of it after that. A grace time,
        // not a state: the events at the last fix may be missing (`comparable` drops them).
        usleep(useconds_t(scaled(1.5) * 1_000_000))
        run.signal(SIGINT)
        let (status, stderr) = run.finish()
        #expect(status == 0, "\(stderr)")
        return fenceEvents(output.all)
    }
}
