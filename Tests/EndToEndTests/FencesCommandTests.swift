import Foundation
import Testing
import Waiting

/// `gpsfence fences lint` and `gpsfence fences add --here` through the real binary (docs/fences.md).
@Suite(.serialized) struct FencesCommandTests {
    /// One of each finding, and one clean fence ("ok").
    let troubled = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"ok","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"name":"Yard","radius":30}},
        {"type":"Feature","id":"near","geometry":{"type":"Point","coordinates":[8.0004,47.0]},"properties":{"radius":20}},
        {"type":"Feature","id":"copy","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"name":"Yard","radius":30}},
        {"type":"Feature","id":"dot","geometry":{"type":"Point","coordinates":[8.1,47.1]},"properties":{"radius":3}},
        {"type":"Feature","id":"county","geometry":{"type":"Point","coordinates":[20.0,47.0]},"properties":{"radius":250000}},
        {"type":"Feature","id":"flipped","geometry":{"type":"Point","coordinates":[47.05,8.05]},"properties":{"radius":40}},
        {"type":"Feature","id":"bowtie","geometry":{"type":"Polygon","coordinates":[[[8.3,47.3],[8.31,47.31],[8.31,47.3],[8.3,47.31],[8.3,47.3]]]},"properties":{}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[8.5,47.5]},"properties":{"name":"Nameless","radius":50}}
        ]}
        """

    /// A plain square (four corners, a hole of four) has nothing that crosses: lint says so.
    @Test func aSimpleSquareWithAHoleLintsClean() throws {
        let file = temporaryDirectory().appendingPathComponent("square.geojson")
        try #"""
        {"type":"FeatureCollection","features":[{"type":"Feature","id":"yard","geometry":{"type":"Polygon","coordinates":[[[8,47],[8.01,47],[8.01,47.01],[8,47.01],[8,47]],[[8.004,47.004],[8.006,47.004],[8.006,47.006],[8.004,47.006],[8.004,47.004]]]},"properties":{}}]}
        """#.write(to: file, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["fences", "lint", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("1 fence, nothing to report\n"), "\(result.stdout)")
    }

    /// Corridors as `fences import` writes them from OpenStreetMap: two unnamed ways of one road
    /// (end to end) are two shapes, not duplicates, and a corridor's width is twice its radius.
    /// The same line twice is a duplicate; a corridor narrower than a fix's error is tiny.
    @Test func lintUnderstandsCorridors() throws {
        let file = temporaryDirectory().appendingPathComponent("roads.geojson")
        func road(_ id: String, _ line: String, radius: Double) -> String {
            #"{"type":"Feature","id":"\#(id)","geometry":{"type":"LineString","coordinates":\#(line)},"properties":{"radius":\#(radius)}}"#
        }
        let features = [
            road("way-1", "[[8.0,47.0],[8.01,47.0]]", radius: 5),
            road("way-2", "[[8.01,47.0],[8.02,47.0]]", radius: 5),
            road("way-3", "[[8.01,47.0],[8.02,47.0]]", radius: 5),
            road("path", "[[8.1,47.1],[8.11,47.1]]", radius: 2),
        ]
        try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}").write(
            to: file, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["fences", "lint", file.path])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func findings(_ feature: Int) -> [String] { lines.filter { $0.contains(": feature \(feature) (") } }
        #expect(findings(0).isEmpty, "a 10 m wide road is no tiny fence: \(lines)")
        #expect(!findings(1).contains { $0.contains("duplicate") }, "\(lines)")
        #expect(findings(2).contains { $0.contains("duplicate") && $0.contains("same shape as feature 1") }, "\(lines)")
        #expect(findings(3).contains { $0.contains("tiny") && $0.contains("only 4 m wide (radius 2 m)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("0 m across") }, "\(lines)")
    }

    @Test func lintNamesEachProblemByFeatureWithAFix() throws {
        let folder = temporaryDirectory()
        let file = folder.appendingPathComponent("fences.geojson")
        try troubled.write(to: file, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["fences", "lint", file.path])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func finding(_ feature: Int, _ kind: String) -> String? {
            lines.first { $0.contains(": feature \(feature) (") && $0.contains(": \(kind): ") }
        }
        #expect(finding(1, "overlap")?.contains("overlaps feature 0 (id \"ok\")") == true, "\(lines)")
        #expect(finding(2, "duplicate")?.contains("same shape as feature 0") == true, "\(lines)")
        #expect(finding(3, "tiny")?.contains("radius of 3 m") == true, "\(lines)")
        #expect(finding(4, "huge")?.contains("250.0 km") == true, "\(lines)")
        #expect(finding(5, "swapped-coordinates")?.contains("[lon, lat]") == true, "\(lines)")
        #expect(finding(6, "self-intersecting") != nil, "\(lines)")
        #expect(finding(7, "no-id")?.contains("\"Nameless\"") == true, "\(lines)")
        // The duplicate is not reported again as an overlap with its original (only with "near");
        // the clean fence has no line.
        #expect(finding(2, "overlap")?.contains("overlaps feature 1 (id \"near\")") == true, "\(lines)")
        #expect(!lines.contains { $0.contains(": feature 2 (") && $0.contains("overlaps feature 0") }, "\(lines)")
        #expect(!lines.contains { $0.contains(": feature 0 (") }, "\(lines)")
        #expect(lines.last?.hasSuffix("8 fences, 8 findings") == true, "\(lines)")

        let json = try runGPSFence(["fences", "lint", "--json", file.path])
        let objects = json.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(objects.count == 8)
        #expect(objects.contains { $0["kind"] as? String == "tiny" && $0["id"] as? String == "dot" })
    }

    @Test func lintOfACleanFileExitsZeroAndOfABadFileTwo() throws {
        let folder = temporaryDirectory()
        let clean = folder.appendingPathComponent("clean.csv")
        try "id,name,lat,lon,radius_m\nhome,Home,53.8,-1.55,75\nwork,Work,53.9,-1.6,100\n"
            .write(to: clean, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["fences", "lint", clean.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("2 fences, nothing to report\n"))
        let broken = folder.appendingPathComponent("broken.geojson")
        try "{\"type\":\"FeatureCollection\",\"features\":[".write(to: broken, atomically: true, encoding: .utf8)
        let refused = try runGPSFence(["fences", "lint", broken.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("broken.geojson"))
    }

    /// A live `run` on `simulate`; `fences add --here` puts a circle at its fix into its fence file
    /// (kept 0640, the rest byte for byte), and the run enters the new fence without a restart.
    @Test func addHereWritesACircleAtTheFixThatTheRunPicksUp() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        let original = """
            {"type": "FeatureCollection",
             "features": [
              {"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[8.01,47.0]},"properties":{"name":"Depot","radius":50}}
             ],
             "name": "my \\"fences\\" ]"}

            """
        try original.write(to: fences, atomically: true, encoding: .utf8)
        chmod(fences.path, 0o640)
        let route = folder.appendingPathComponent("route.geojson")
        try """
        {"type":"Feature","geometry":{"type":"LineString","coordinates":[[7.99995,47.0],[8.00005,47.0]]},"properties":{}}
        """.write(to: route, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "9600", "--rate", "2", "--speed", "2", "--loop",
        ])
        let pty = simulator.readFirstLine()
        let run = try BackgroundGPSFence(
            ["run", "--device", pty, "--baud", "9600", "--fences", fences.path, "--state", state, "--json"])
        let output = LineCollector(run.output.fileHandleForReading)
        // Before any fix, there is no "here".
        let early = try runGPSFence(["fences", "add", "--here", "Too soon", "--radius", "40", "--state", state])
        if early.status != 0 {
            #expect(
                early.status == 2 && (early.stderr.contains("no fix") || early.stderr.contains("no state file")),
                "\(early.stderr)")
        }
        var added = CommandResult(status: -1, stdout: "", stderr: "")
        try waitUntil(timeout: 20, every: 0.3) {
            added = try runGPSFence(["fences", "add", "--here", "Low bridge", "--radius", "40", "--state", state])
            return added.status == 0
        }
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added \"low-bridge\" \"Low bridge\": a circle of 40 m at (47"))
        #expect(
            output.wait { lines in lines.contains { $0.contains("\"enter\"") && $0.contains("low-bridge") } },
            "\(output.all)")
        run.signal(SIGINT)
        _ = run.finish()
        simulator.signal(SIGINT)
        _ = simulator.finish()

        let text = try String(contentsOf: fences, encoding: .utf8)
        let prefix = original.prefix { $0 != "]" }.dropLast(2)
        #expect(text.hasPrefix(prefix), "\(text)")
        #expect(text.hasSuffix("\n ],\n \"name\": \"my \\\"fences\\\" ]\"}\n"), "\(text)")
        let attributes = try FileManager.default.attributesOfItem(atPath: fences.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o640)
        // The id is taken now: a second fence of that name gets the next one, an explicit clash is refused.
        let clash = try runGPSFence([
            "fences", "add", "--here", "x", "--id", "low-bridge", "--radius", "10", "--state", state,
            "--max-age", "1d",
        ])
        #expect(clash.status == 2 && clash.stderr.contains("already has a fence with id \"low-bridge\""))
        let lint = try runGPSFence(["fences", "lint", fences.path])
        #expect(lint.status == 0, "\(lint.stdout)")
    }

    /// A van driving east at 10 m/s: `fences add --here` a quarter of a minute after the run's
    /// first fix takes where the van is now, not the fix of the run's last track write (at its
    /// first fix, 150 m back), and the `enter` it promises follows, located where the fence is.
    @Test func addHereDuringADriveUsesTheRunsLatestFix() throws {
        let folder = temporaryDirectory()
        let fences = folder.appendingPathComponent("fences.geojson")
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"depot","geometry":{"type":"Point","coordinates":[8.1,47.1]},"properties":{"radius":50}}]}"#
            .write(to: fences, atomically: true, encoding: .utf8)
        let route = folder.appendingPathComponent("route.geojson")
        // 3 km along 47° N.
        try
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[8.0,47.0],[8.04,47.0]]},"properties":{}}"#
            .write(to: route, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let simulator = try BackgroundGPSFence(["simulate", route.path, "--baud", "9600", "--speed", "10"])
        let pty = simulator.readFirstLine()
        let run = try BackgroundGPSFence(
            ["run", "--device", pty, "--baud", "9600", "--fences", fences.path, "--state", state, "--json"])
        let output = LineCollector(run.output.fileHandleForReading)
        defer {
            run.signal(SIGINT)
            _ = run.finish()
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        func storedFix() throws -> [String: Any]? {
            let status = try runGPSFence(["status", "--state", state, "--json"])
            let object = try? JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
            return object?["last_fix"] as? [String: Any]
        }
        try waitUntil(timeout: 20, every: 0.2) { try storedFix() != nil }
        let first = try #require(try storedFix()?["lon"] as? Double, "the run wrote its first fix")
        // 15 s of the drive, on the simulator's clock: a time to drive, not a wait for a state (the
        // run's live position is what `--here` asks for).
        Thread.sleep(forTimeInterval: 15)
        let added = try runGPSFence(["fences", "add", "--here", "Spot", "--radius", "50", "--state", state])
        #expect(added.status == 0, "\(added.stderr)")
        // "... a circle of 50 m at (47.000000000, 8.012345678) to ..."
        let position = try #require(added.stdout.split(separator: "(").last?.split(separator: ")").first)
        let lon = try #require(Double(position.split(separator: ",").last!.trimmingCharacters(in: .whitespaces)))
        let metresPerDegree = 6_371_008.8 * Double.pi / 180 * cos(47 * Double.pi / 180)
        #expect((lon - first) * metresPerDegree > 120, "15 s of driving past the stored fix: \(added.stdout)")
        #expect(
            output.wait(timeout: 10) { lines in
                lines.contains { $0.contains(#""type":"enter""#) && $0.contains("spot") }
            },
            "\(output.all)")
        let enter = try #require(output.all.first { $0.contains(#""type":"enter""#) && $0.contains("spot") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(enter.utf8)) as? [String: Any])
        let location = try #require(object["location"] as? [String: Any])
        let entered = try #require(location["lon"] as? Double)
        #expect(abs(entered - lon) * metresPerDegree < 40, "the fence is where the van was asked: \(enter)")
        #expect(object["reason"] as? String == "added")
    }

    /// A state file with a last fix, from a replay of the bridge drive (its last fix is the
    /// capture's last position, at the replay's wall-clock time).
    func bridgeState(_ folder: URL) throws -> String {
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--state", state,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        return state
    }

    /// Into a CSV file in a spreadsheet's layout: the new line follows the file's own columns
    /// (an empty cell for each property column), and the file loads with the new fence in it.
    @Test func addWritesInTheCSVFilesOwnColumnOrder() throws {
        let folder = temporaryDirectory()
        let state = try bridgeState(folder)
        let csv = folder.appendingPathComponent("sheet.csv")
        try "Name,Latitude,Longitude,Radius,ID,notes\r\nHome,42.2,-83.7,75,home,gate code 12\r\n".write(
            to: csv, atomically: true, encoding: .utf8)
        let added = try runGPSFence([
            "fences", "add", "--here", "Gate", "--radius", "20", "--state", state, "--fences", csv.path,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        // By bytes: "\r\n" is one Character, which a split on "\n" would not cut.
        let lines = try Data(contentsOf: csv).split(separator: UInt8(ascii: "\n")).map {
            String(decoding: $0, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        }
        try #require(lines.count == 3)
        let fields = lines[2].split(separator: ",", omittingEmptySubsequences: false)
        #expect(
            fields.count == 6 && fields[0] == "Gate" && fields[3] == "20" && fields[4] == "gate" && fields[5].isEmpty,
            "\(lines[2])")
        #expect(fields[1].hasPrefix("42.28"), "\(lines[2])")
        let check = try runGPSFence(["check", "--fences", csv.path, "--json", "42.2", "-83.7"])
        #expect(check.status == 0 && check.stdout.contains("\"inside\":[\"home\"]"), "\(check.stdout)\(check.stderr)")
    }

    /// Through a symlink, into a CSV file: the link stays a link, its target gets the line (name
    /// quoted, shell characters kept as data), mode 0604 kept. A bare Feature file is refused,
    /// untouched.
    @Test func addKeepsLinksModesAndRefusesWhatItCannotAddTo() throws {
        let folder = temporaryDirectory()
        let state = try bridgeState(folder)
        let csv = folder.appendingPathComponent("fences.csv")
        try "id,name,lat,lon,radius_m\nhome,Home,42.2,-83.7,75".write(to: csv, atomically: true, encoding: .utf8)
        chmod(csv.path, 0o604)
        let link = folder.appendingPathComponent("current.csv")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "fences.csv")
        let added = try runGPSFence([
            "fences", "add", "--here", "Gate, \"north\"; $(rm -rf ~)", "--radius", "20", "--state", state, "--fences",
            link.path,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "fences.csv")
        let text = try String(contentsOf: csv, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && lines[1] == "home,Home,42.2,-83.7,75", "\(text)")
        #expect(lines[2].hasPrefix("gate-north-rm-rf,\"Gate, \"\"north\"\"; $(rm -rf ~)\",42.28"), "\(text)")
        let attributes = try FileManager.default.attributesOfItem(atPath: csv.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o604)
        let check = try runGPSFence(["check", "--fences", csv.path, "--json", "42.2", "-83.7"])
        #expect(check.status == 0 && check.stdout.contains("\"inside\":[\"home\"]"), "\(check.stdout)\(check.stderr)")

        let bare = folder.appendingPathComponent("one.geojson")
        let feature = """
            {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{"radius":30}}
            """
        try feature.write(to: bare, atomically: true, encoding: .utf8)
        let refused = try runGPSFence([
            "fences", "add", "--here", "Gate", "--radius", "20", "--state", state, "--fences", bare.path,
        ])
        #expect(refused.status == 2 && refused.stderr.contains("not a GeoJSON FeatureCollection"), "\(refused.stderr)")
        #expect(try String(contentsOf: bare, encoding: .utf8) == feature)
        let withoutHere = try runGPSFence(["fences", "add", "Gate", "--radius", "20", "--state", state])
        #expect(withoutHere.status == 2 && withoutHere.stderr.contains("--here"), "\(withoutHere.stderr)")
    }
}
