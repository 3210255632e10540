import Foundation
import Testing

/// Headless Chromium, as a real reader of the report: the DOM after the page's script ran, the
/// console, and Chromium's own log of every network request the page made.
struct Chromium {
    struct Page {
        var dom: String
        var console: [String]
        /// Non-file URLs the page asked for (Chromium's own background requests are not the page's).
        var pageRequests: [String]
    }

    static let flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-default-apps", "--no-first-run", "--disable-extensions", "--hide-scrollbars",
        "--enable-logging=stderr", "--v=0",
    ]

    static func run(_ arguments: [String]) throws -> CommandResult {
        let profile = temporaryDirectory().appendingPathComponent("profile").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chromium")
        process.arguments = flags + ["--user-data-dir=\(profile)"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = Mutable()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            collected.data = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: collected.data, as: UTF8.self))
    }

    static func open(_ path: String) throws -> Page {
        let netLog = temporaryDirectory().appendingPathComponent("net.json").path
        let result = try run(["--log-net-log=\(netLog)", "--dump-dom", "file://" + path])
        let console = result.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        var requests: [String] = []
        if let data = FileManager.default.contents(atPath: netLog),
            let log = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = log["events"] as? [[String: Any]]
        {
            for event in events {
                guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
                    let key = params["network_isolation_key"] as? String, key.contains("file://"),
                    !url.hasPrefix("file:")
                else { continue }
                requests.append(url)
            }
        } else {
            requests.append("no net log written")
        }
        return Page(dom: result.stdout, console: console, pageRequests: requests)
    }

    private final class Mutable: @unchecked Sendable { var data = Data() }
}

/// The field report (docs/report.md) of every scenario, read by real consumers: Chromium for the page,
/// GDAL's ogrinfo for the GeoJSON, GPSBabel for the GPX.
@Suite(.serialized) struct ReportCommandTests {
    func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    func fenceText(_ event: [String: Any]) -> String {
        guard let fence = event["fence"] as? [String: Any] else { return "" }
        if let text = fence["id"] as? String { return text }
        return (fence["id"] as? NSNumber)?.stringValue ?? ""
    }

    /// `(id, type, fence id)` of every element with a `data-event-id` in a DOM.
    func markers(_ dom: String) throws -> [String] {
        let pattern = try NSRegularExpression(
            pattern: #"<[a-z]+ [^>]*data-event-id="([^"]*)" data-event-type="([^"]*)" data-fence-id="([^"]*)""#)
        return pattern.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)).map { match in
            (1...3).map { String(dom[Range(match.range(at: $0), in: dom)!]) }.joined(separator: "|")
        }
    }

    @Test(arguments: ScenarioTests.scenarios)
    func reportOpensInChromiumWithOneMarkerPerEvent(scenario: String) throws {
        let folder = "captures/\(scenario)/"
        let html = temporaryDirectory().appendingPathComponent("\(scenario).html").path
        let report = try runGPSFence([
            "report", folder + "capture.nmea", "--fences", folder + "fences.geojson", "--output", html,
        ])
        #expect(report.status == 0, "\(report.stderr)")
        let replay = try runGPSFence([
            "replay", folder + "capture.nmea", "--fences", folder + "fences.geojson", "--json",
        ])
        let events = jsonLines(replay.stdout)
        let expectedCount = try String(
            contentsOfFile: packageRoot.appendingPathComponent(folder + "expected.jsonl").path, encoding: .utf8
        )
        .split(separator: "\n").count
        #expect(events.count == expectedCount)

        // Self-contained: nothing in the file points outside it.
        let text = try String(contentsOfFile: html, encoding: .utf8)
        for needle in ["http://", "https://", "src=", "href=", "url(", "@import", "fetch(", "XMLHttpRequest"] {
            #expect(!text.contains(needle), "\(scenario): the report contains \(needle)")
        }

        let page = try Chromium.open(html)
        #expect(page.dom.contains("data-ready=\"yes\""), "\(scenario): the page's script did not run to its end")
        #expect(page.console.isEmpty, "\(scenario): console: \(page.console)")
        #expect(page.pageRequests.isEmpty, "\(scenario): the page fetched \(page.pageRequests)")
        let want = events.map { "\($0["id"] as! String)|\($0["type"] as! String)|\(fenceText($0))" }
        let got = try markers(page.dom)
        #expect(got.count == events.count, "\(scenario): \(got.count) markers for \(events.count) events")
        #expect(got.sorted() == want.sorted(), "\(scenario)")
    }

    /// The checks above can fail: a page with an error, a console message and a fetch trips them.
    @Test func chromiumChecksCatchABadPage() throws {
        let bad = temporaryDirectory().appendingPathComponent("bad.html")
        try
            #"<html><body><script>console.error("x"); missing();</script><img src="http://192.0.2.1/a.png"></body></html>"#
            .write(to: bad, atomically: true, encoding: .utf8)
        let page = try Chromium.open(bad.path)
        #expect(page.console.count >= 2)
        #expect(page.pageRequests.contains("http://192.0.2.1/a.png"))
    }

    @Test func screenshotOfTheBridgeDrive() throws {
        let folder = temporaryDirectory()
        let html = folder.appendingPathComponent("bridge.html").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--output", html,
        ])
        #expect(result.status == 0)
        for (name, size) in [("laptop", "1100,2000"), ("phone", "390,2400")] {
            let png = folder.appendingPathComponent("bridge-\(name).png").path
            let shot = try Chromium.run(["--window-size=\(size)", "--screenshot=\(png)", "file://" + html])
            #expect(shot.status == 0, "\(shot.stderr)")
            let data = try #require(FileManager.default.contents(atPath: png))
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
            // Width from the IHDR chunk: the page was drawn at the window's width.
            let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == Int(size.split(separator: ",")[0])!)
            // GPSFENCE_UPDATE_DOCS=1 refreshes the picture in docs/report.md from this run.
            if ProcessInfo.processInfo.environment["GPSFENCE_UPDATE_DOCS"] != nil {
                let target = packageRoot.appendingPathComponent("docs/report-bridge-\(name).png")
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(atPath: png, toPath: target.path)
            }
        }
    }

    /// ogrinfo counts the features of each geometry type. Fix-lost: 1 fence (a polygon), the
    /// track in 2 stretches (no usable fix from t = 21 to t = 50, longer than the 10 s stale
    /// time), and a point for each of the 4 events with a location (registered has none).
    @Test func geoJSONReadByOgrinfo() throws {
        let folder = temporaryDirectory()
        let geojson = folder.appendingPathComponent("fix-lost.geojson").path
        let result = try runGPSFence([
            "report", "captures/fix-lost/capture.nmea", "--fences", "captures/fix-lost/fences.geojson",
            "--output", folder.appendingPathComponent("r.html").path, "--geojson", geojson,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try runProgram("/usr/bin/ogrinfo", ["-ro", "-al", "-geom=SUMMARY", geojson])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("Feature Count: 7"), "\(info.stdout.prefix(600))")
        let lines = info.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.filter { $0.hasPrefix("POLYGON") }.count == 1)
        #expect(lines.filter { $0.hasPrefix("LINESTRING") }.count == 2)
        #expect(lines.filter { $0.hasPrefix("POINT") }.count == 4)
        // 21 usable fixes before the loss (t = 0 ... 20), 15 after (t = 51 ... 65).
        #expect(lines.contains { $0.hasPrefix("LINESTRING") && $0.contains("21 points") })
        #expect(lines.contains { $0.hasPrefix("LINESTRING") && $0.contains("15 points") })
        #expect(lines.contains("type (String) = fix_lost"))
    }

    /// Fence shapes survive the export: the campus keeps its courtyard as a hole, and the dateline
    /// box (a MultiPolygon split at 180°) stays two parts.
    @Test func polygonHolesAndPartsReadByOgrinfo() throws {
        for (scenario, want) in [
            ("hole", "POLYGON : 5 points, 1 inner rings (5 points)"), ("antimeridian", "MULTIPOLYGON : 2 geometries:"),
        ] {
            let folder = temporaryDirectory()
            let geojson = folder.appendingPathComponent("\(scenario).geojson").path
            let result = try runGPSFence([
                "report", "captures/\(scenario)/capture.nmea", "--fences", "captures/\(scenario)/fences.geojson",
                "--output", folder.appendingPathComponent("r.html").path, "--geojson", geojson,
            ])
            #expect(result.status == 0, "\(result.stderr)")
            let info = try runProgram("/usr/bin/ogrinfo", ["-ro", "-al", "-geom=SUMMARY", geojson])
            #expect(info.stdout.contains(want), "\(scenario): \(info.stdout)")
        }
    }

    /// GPSBabel reads the GPX back: every usable fix of the bridge drive (121, one a second) as a
    /// track point, and the 3 events with a location (approach, enter, exit) as waypoints.
    @Test func gpxReadByGpsbabel() throws {
        let folder = temporaryDirectory()
        let gpx = folder.appendingPathComponent("bridge.gpx").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson",
            "--output", folder.appendingPathComponent("r.html").path, "--gpx", gpx,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let track = try runProgram("/usr/bin/gpsbabel", ["-t", "-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", "-"])
        #expect(track.status == 0, "\(track.stderr)")
        // GPSBabel ends its CSV lines with CR LF.
        let rows = track.stdout.split(whereSeparator: \.isNewline)
        #expect(rows.count == 1 + 121, "header and one row per track point")
        #expect(rows.first?.contains("Speed") == true && rows.first?.contains("Time") == true)
        let waypoints = try runProgram("/usr/bin/gpsbabel", ["-w", "-i", "gpx", "-f", gpx, "-o", "unicsv", "-F", "-"])
        #expect(waypoints.stdout.split(whereSeparator: \.isNewline).count == 1 + 3)
        #expect(waypoints.stdout.contains("approach Low bridge"))
        // A waypoint's description is what a person reads (the table's details), not escaped JSON.
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(!text.contains("&quot;type&quot;") && !text.contains("<desc>{"), "\(text.prefix(600))")
        #expect(text.contains("<desc>") && text.contains(" ahead"), "\(text.prefix(600))")
    }

    /// An unnamed fence is labelled by its id as written (no JSON quotes), and a label near the
    /// map's edge is moved in so that all of it shows: here a long id at the east end of the drive.
    @Test func fenceLabelsAreReadableAndInsideTheMap() throws {
        let folder = temporaryDirectory()
        let id = "unnamed-ramp-at-the-east-end-of-the-drive"
        let east = -83.751891 + 490 / (6_371_008.8 * cos(42.280597 * .pi / 180)) * 180 / .pi
        let fences = folder.appendingPathComponent("fences.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(east),42.280597]},"properties":{"radius":30}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let html = folder.appendingPathComponent("r.html").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", fences.path, "--output", html,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!page.contains("&quot;\(id)&quot;"), "no quoted id")
        let label = try #require(
            page.firstMatch(of: /<text class="fence-label" x="([0-9.]+)" y="([0-9.]+)">([^<]*)<\/text>/),
            "\(page.prefix(2000))")
        #expect(label.output.3 == id)
        let x = try #require(Double(label.output.1))
        let viewBox = try #require(page.firstMatch(of: /id="map" viewBox="0 0 ([0-9]+) ([0-9]+)"/))
        let width = try #require(Double(viewBox.output.1))
        // 13 px type is about 7 px a character: half the label on each side of its centre.
        let half = Double(id.count) * 3.5
        #expect(x - half >= 0 && x + half <= width, "label centred at \(x) of \(width)")
    }

    /// The events table says the bridge's clearance and the vehicle's height beside the warning.
    @Test func theEventsTableSaysClearanceAndVehicleHeight() throws {
        let folder = temporaryDirectory()
        let html = folder.appendingPathComponent("r.html").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--output", html,
            "--vehicle-height", "3.5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let rows = page.components(separatedBy: "<tr data-row-for=").filter { $0.contains("approach</td>") }
        let row = try #require(rows.first, "\(page.count)")
        #expect(row.contains("TOO LOW for the vehicle"), "\(row)")
        #expect(row.contains("clearance 3.2 m · vehicle 3.5 m"), "\(row)")
    }

    /// Under `--units imperial` the map's accuracy legend is in feet, as every other distance.
    @Test func theAccuracyLegendFollowsTheUnits() throws {
        let folder = temporaryDirectory()
        let html = folder.appendingPathComponent("r.html").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--output", html,
            "--units", "imperial",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try String(contentsOfFile: html, encoding: .utf8)
        let legend = try #require(page.range(of: "accuracy ≤ ").map { String(page[$0.upperBound...].prefix(200)) })
        #expect(legend.hasPrefix("16.4 ft"), "\(legend)")
        #expect(!legend.contains(" m "), "\(legend)")
    }

    /// From a state file: the track and the event log, cut at --since.
    @Test func reportFromAStateFileSince() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--state", state,
            "--json",
        ])
        #expect(replay.status == 0)
        let html = folder.appendingPathComponent("gym.html").path
        // From 10:30: the gym capture's moving (10:36:22), exit and visit (10:36:29).
        let result = try runGPSFence([
            "report", "--state", state, "--since", "2026-02-03T10:30:00Z", "--fences", "captures/gym/fences.geojson",
            "--output", html, "--gpx", folder.appendingPathComponent("gym.gpx").path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let page = try Chromium.open(html)
        #expect(try markers(page.dom).map { $0.split(separator: "|")[1] } == ["moving", "exit", "visit"])
        // The state keeps one fix a second: 10:30:00 ... 10:36:39 is 400 of them.
        let track = try runProgram(
            "/usr/bin/gpsbabel",
            ["-t", "-i", "gpx", "-f", folder.appendingPathComponent("gym.gpx").path, "-o", "unicsv", "-F", "-"])
        #expect(track.stdout.split(whereSeparator: \.isNewline).count == 1 + 400)
    }

    /// Without --fences, a report from a state file draws the fence file the state file records.
    @Test func reportFromAStateFileUsesItsRecordedFences() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--state", state,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let geojson = folder.appendingPathComponent("gym.geojson")
        let result = try runGPSFence([
            "report", "--state", state, "--output", folder.appendingPathComponent("gym.html").path, "--geojson",
            geojson.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: geojson)) as? [String: Any])
        let names = (collection["features"] as? [[String: Any]] ?? []).compactMap {
            ($0["properties"] as? [String: Any])?["name"] as? String
        }
        #expect(names.contains("Iron Temple gym"), "\(names)")
        let captures = try runGPSFence(["report", "captures/gym/capture.nmea", "--output", "/dev/null"])
        #expect(captures.status == 2)
        #expect(captures.stderr.contains("--fences is needed with captures"), "\(captures.stderr)")
    }

    @Test func badUsageIsExitStatusTwo() throws {
        let neither = try runGPSFence(["report", "--fences", "captures/gym/fences.geojson"])
        #expect(neither.status == 2)
        let since = try runGPSFence([
            "report", "--state", "/tmp/x.sqlite", "--since", "yesterday", "--fences", "captures/gym/fences.geojson",
        ])
        #expect(since.status == 2)
        #expect(since.stderr.contains("yesterday"))
        let missing = try runGPSFence([
            "report", "--state", "/nonexistent/state.sqlite", "--fences", "captures/gym/fences.geojson",
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/state.sqlite"))
    }
}

/// Runs any program to its end and collects its output.
func runProgram(_ path: String, _ arguments: [String]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorData = ErrorBox()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { errorData.data = errors.fileHandleForReading.readDataToEndOfFile() }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
        stderr: String(decoding: errorData.data, as: UTF8.self))
}

private final class ErrorBox: @unchecked Sendable { var data = Data() }
