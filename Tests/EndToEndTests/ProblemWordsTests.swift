import Foundation
import Testing

/// Problems said through the real binary that no other test reads: each names the option or the
/// file, the value or the place, and exits with the status of its kind (docs/running.md).
@Suite struct ProblemWordsTests {
    static let fences = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"yard","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":50}}
        ]}
        """

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// `check`'s point: missing, not two numbers, not numbers, out of range, given twice.
    @Test func aPointThatIsNotOneIsNamedWithWhatWasGiven() throws {
        let folder = temporaryDirectory()
        let fences = try Self.write(Self.fences, "fences.geojson", in: folder)
        let points = try Self.write("47,8\n", "points.csv", in: folder)
        let cases: [([String], [String])] = [
            ([], ["LAT LON", "--points FILE"]),
            (["47", "8", "9"], ["two numbers", "'47 8 9'"]),
            (["north", "east"], ["must be numbers", "'north east'"]),
            (["91", "8"], ["latitude 91.0", "[-90, 90]"]),
            (["47", "181.5"], ["longitude 181.5", "[-180, 180]"]),
            (["47", "8", "--points", points], ["LAT LON", "--points FILE", "not both"]),
            (["--points", points, "--json"], ["--json", "--points"]),
        ]
        for (arguments, words) in cases {
            let result = try runGPSFence(["check", "--fences", fences] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            for word in words { #expect(result.stderr.contains(word), "\(arguments): \(result.stderr)") }
        }
    }

    /// `--sync-id ""` and a `--sync-threshold` out of range name the option and the value.
    @Test func syncOptionsNameTheOptionAndTheValue() throws {
        let folder = temporaryDirectory()
        let fences = try Self.write(Self.fences, "fences.geojson", in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let base = ["replay", folder.appendingPathComponent("none.nmea").path, "--fences", fences, "--state", state]
        let cases: [([String], String)] = [
            (["--sync", "http://127.0.0.1:9/", "--sync-id", ""], "--sync-id must not be empty"),
            (["--sync", "http://127.0.0.1:9/", "--sync-threshold=-3"], "--sync-threshold must be positive"),
            (["--sync", "http://127.0.0.1:9/", "--sync-interval", "0"], "--sync-interval must be more than 0"),
        ]
        for (options, words) in cases {
            let result = try runGPSFence(base + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: state), "nothing is made before the options are judged")
        }
        let threshold = try runGPSFence(base + ["--sync", "http://127.0.0.1:9/", "--sync-threshold=-3"])
        #expect(threshold.stderr.contains("not -3"), "\(threshold.stderr)")
    }

    /// A hook program that cannot be run and a webhook that is no HTTP URL: bad input, named
    /// with the option and the value, before any event is delivered.
    @Test func hooksAndWebhooksThatCannotBeUsedAreNamed() throws {
        let folder = temporaryDirectory()
        let plain = try Self.write("#!/bin/sh\n", "hook.sh", in: folder)
        let base = ["replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson"]
        let cases: [([String], String)] = [
            (["--exec", "no-such-hook-program-here"], "--exec no-such-hook-program-here: no such program in PATH"),
            (["--exec", plain], "--exec \(plain): not an executable file"),
            (
                ["--webhook", "ftp://127.0.0.1/events"],
                "--webhook ftp://127.0.0.1/events: not an http:// or https:// URL"
            ),
            // Past the options' check (it names no host): refused where the webhook is made.
            (["--webhook", "http://"], "gpsfence: --webhook http://: not an http:// or https:// URL"),
        ]
        for (options, words) in cases {
            let result = try runGPSFence(base + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(options): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(options): \(result.stdout)")
        }
    }

    /// An option without the one it goes with, and two that exclude each other: both named,
    /// with the usage lines of a check the argument parser runs, exit status 2.
    @Test func optionsThatNeedOrExcludeAnotherAreNamed() throws {
        let folder = temporaryDirectory()
        let route = try Self.write(
            #"{"type":"LineString","coordinates":[[8.0,47.0],[8.0001,47.0001]]}"#, "route.geojson", in: folder)
        let cases: [([String], String)] = [
            (
                [
                    "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--since",
                    "2h",
                ],
                "--since goes with --state"
            ),
            (
                ["simulate", route, "--pty", "--device", "/dev/null"],
                "--pty and --device exclude each other: choose one"
            ),
            (["simulate", route, "--now", "--start", "2026-02-03T10:00:00Z"], "--now and --start exclude each other"),
        ]
        for (arguments, words) in cases {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("Usage:"), "\(arguments): \(result.stderr)")
        }
    }

    /// Option values the command cannot take, each refused before anything starts with the option
    /// and the value named, the usage lines after, exit status 2: ranges, forms, choices, numbers.
    @Test func optionValuesNotTakenAreNamedWithTheValue() throws {
        let folder = temporaryDirectory()
        let route = try Self.write(
            #"{"type":"LineString","coordinates":[[8.0,47.0],[8.0001,47.0001]]}"#, "route.geojson", in: folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = ["replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson"]
        let cases: [([String], [String])] = [
            (
                ["configure", "--device", "/dev/null", "--rate", "1", "--timeout", "45"],
                ["--timeout must be more than 0 and at most 30 seconds, not 45"]
            ),
            (["configure", "--device", "/dev/null", "--rate", "30"], ["--rate must be 0.1 to 25 Hz, not 30"]),
            (
                ["configure", "--device", "/dev/null", "--sentences", "RMC,XYZ"],
                ["--sentences must be ", "GGA, ", " or ", "not 'XYZ'"]
            ),
            (["configure", "--device", "/dev/null", "--baud", "300"], ["--baud must be 4800, ", "not '300'"]),
            (
                ["configure", "--device", "/dev/null", "--rate", "1", "--line-baud", "1234"],
                ["--line-baud must be auto, ", "not '1234'"]
            ),
            (["configure", "--device", "gpsd://localhost", "--rate", "1"], ["configure talks to the receiver itself"]),
            (
                ["status", "--state", state, "--watch", "--interval", "0.01"],
                ["--interval must be 0.1 to 3600 seconds, not 0.01"]
            ),
            (replay + ["--speed", "fast"], ["--speed wants a positive number or 'max', not 'fast'"]),
            (
                ["report", "--state", state, "--since", "last week"],
                ["--since wants a duration (90s, 30m, 2h, 7d) or a UTC time (2026-02-03T10:00:00Z), not 'last week'"]
            ),
            (["visits", "--state", state, "--month", "13"], ["--month must be 1 to 12, not 13"]),
            (
                ["simulate", route, "--start", "tomorrow"],
                ["--start wants an ISO 8601 time (2026-02-03T10:00:00Z), not 'tomorrow'"]
            ),
            (["simulate", route, "--baud", "1234"], ["--baud must be ", "not '1234'"]),
            (
                ["fences", "add", "--here", "Gate", "--radius", "-5", "--state", state],
                ["--radius must be positive (more than 0 and at most 20015115 metres), not -5"]
            ),
            (
                replay + ["--hysteresis", "abc"],
                ["The value 'abc' is invalid for '--hysteresis", "not a number; write it like 3.5 or 3,5"]
            ),
            (replay + ["--dwell", "5x"], ["The value '5x' is invalid for '--dwell", "'x' is not a unit of time"]),
            (
                replay + ["--exec-timeout", "0"],
                ["--exec-timeout must be more than 0 and at most 1000000000 seconds, not 0"]
            ),
            (
                replay + ["--webhook", "http://127.0.0.1:9/", "--webhook-header", "no colon"],
                ["--webhook-header 'no colon': expected 'NAME: VALUE' or 'NAME: @FILE'"]
            ),
            (replay + ["--say", "--say-wav", route], ["--say-wav \(route): not a directory (make it first)"]),
            (
                replay + ["--timezone", "Europe/Berlin", "--utc"],
                ["--timezone and --utc exclude each other: choose one"]
            ),
        ]
        for (arguments, words) in cases {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            for word in words { #expect(result.stderr.contains(word), "\(arguments): \(result.stderr)") }
            #expect(result.stderr.contains("Usage:"), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: state), "nothing is made before the options are judged")
    }

    /// A check made after the options are parsed (`decode --rollover-pivot`) names the option and
    /// the value as the others do.
    @Test func aRolloverPivotThatIsNoDateIsNamed() throws {
        let result = try runGPSFence(["decode", "--rollover-pivot", "2026-13-40", "captures/bridge/capture.nmea"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("--rollover-pivot wants a date as YYYY-MM-DD, not '2026-13-40'"), "\(result.stderr)")
    }

    /// A report that cannot be written is a runtime failure said with the path and the system's
    /// reason.
    @Test func aReportThatCannotBeWrittenNamesThePathAndTheReason() throws {
        let output = temporaryDirectory().appendingPathComponent("no-such-folder/report.html").path
        let result = try runGPSFence([
            "report", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--output", output,
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == "gpsfence: cannot write '\(output)': No such file or directory\n", "\(result.stderr)")
    }

    /// `simulate --link` onto a file that is not a link to a pseudo-terminal is refused, the
    /// file untouched.
    @Test func aLinkPathHoldingAFileIsLeftAlone() throws {
        let folder = temporaryDirectory()
        let route = try Self.write(
            #"{"type":"LineString","coordinates":[[8.0,47.0],[8.0001,47.0001]]}"#, "route.geojson", in: folder)
        let taken = try Self.write("mine\n", "gps0", in: folder)
        let result = try runGPSFence(["simulate", route, "--link", taken, "--speed", "50"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--link \(taken): there is a file there"), "\(result.stderr)")
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "mine\n")
        let elsewhere = folder.appendingPathComponent("elsewhere").path
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("gps1").path, withDestinationPath: elsewhere)
        let linked = try runGPSFence(
            ["simulate", route, "--link", folder.appendingPathComponent("gps1").path, "--speed", "50"])
        #expect(linked.status == 2, "\(linked.stderr)")
        #expect(linked.stderr.contains("a symlink to '\(elsewhere)', not to a pseudo-terminal"), "\(linked.stderr)")
    }

    /// Sources `fences import` cannot read: each named with the file, the place where there is
    /// one, and the cause; nothing written.
    @Test func importProblemsNameTheFileThePlaceAndTheCause() throws {
        let folder = temporaryDirectory()
        let mismatched = try Self.write(
            "<kml>\n<Document>\n  <Placemark></Document>\n</kml>\n", "drawn.kml", in: folder)
        let notKML = try Self.write("<gpx>\n</gpx>\n", "other.kml", in: folder)
        let unknown = try Self.write("just words\n", "notes.txt", in: folder)
        let badCoordinates = try Self.write(
            "<kml><Placemark><Point><coordinates>8.0;47.0</coordinates></Point></Placemark></kml>\n", "bad.kml",
            in: folder)
        let emptyKML = try Self.write("<kml><Document></Document></kml>\n", "empty.kml", in: folder)
        let emptyGPX = try Self.write("<gpx version=\"1.1\"></gpx>\n", "empty.gpx", in: folder)
        let directory = folder.appendingPathComponent("a-folder.kml").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("out.geojson").path
        let cases: [(String, String)] = [
            (mismatched, "\(mismatched): line 3, column 14: broken XML: </Document> where </Placemark> was expected"),
            (notKML, "\(notKML): line 1, column 1: not a KML file (its root element is not <kml>)"),
            (unknown, "\(unknown): not a file fences import reads"),
            (badCoordinates, "coordinates '8.0;47.0' are not lon,lat[,altitude]"),
            (directory, "\(directory): is a directory, not a file to import"),
            (
                emptyKML,
                "\(emptyKML): no Placemark with a Point, LineString or Polygon became a fence; nothing was written"
            ),
            (
                emptyGPX,
                "\(emptyGPX): no waypoint (wpt), route (rte) or track (trk) became a fence; nothing was written"
            ),
        ]
        for (source, words) in cases {
            let result = try runGPSFence(["fences", "import", source, "--output", output])
            #expect(result.status == 2, "\(source): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(source): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
