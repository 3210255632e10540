import Foundation
import Testing

/// The small rough edges a newcomer meets, each as a user meets it.
@Suite struct SmallThingsTests {
    static let capture = "captures/gym/capture.nmea"
    static let fences = "captures/gym/fences.geojson"

    @Test func durationsTakeUnitsEverywhere() throws {
        let minutes = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--heartbeat", "10m", "--json"])
        #expect(minutes.status == 0, "\(minutes.stderr)")
        let seconds = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--heartbeat", "600", "--json"])
        #expect(minutes.stdout == seconds.stdout, "10m is 600 s")
        #expect(minutes.stdout.contains(#""type":"heartbeat""#))
        let dwell = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--dwell", "5m"])
        #expect(dwell.status == 0, "\(dwell.stderr)")
        let bad = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--dwell", "5x"])
        #expect(bad.status == 2)
    }

    @Test func consoleLinesSayOneFenceAndKeepTheirColumns() throws {
        let result = try runGPSFence(["replay", Self.capture, "--fences", Self.fences])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("registered        1 fence watched: gym") == true, "\(lines.first ?? "")")
        // Every kind, device_connected the longest, leaves the details at one column.
        let detailColumn = 22 + "device_connected".count + 2
        for line in lines { #expect(line.count > detailColumn && line.dropFirst(detailColumn - 2).hasPrefix("  ")) }
    }

    @Test func checkTakesTheFormsPeopleCopy() throws {
        let comma = try runGPSFence(["check", "--fences", Self.fences, "40.741895,-73.989308"])
        #expect(comma.status == 0, "\(comma.stderr)")
        #expect(comma.stdout.contains("is inside 1 fence"))
        let spaced = try runGPSFence(["check", "--fences", Self.fences, "40.741895,", "-73.989308"])
        #expect(spaced.status == 0, "\(spaced.stderr)")
        let points = temporaryDirectory().appendingPathComponent("points.csv")
        try "lat,lon\n40.741895,-73.989308\n0,0\n".write(to: points, atomically: true, encoding: .utf8)
        let file = try runGPSFence(["check", "--fences", Self.fences, "--points", points.path])
        #expect(file.status == 0, "\(file.stderr)")
        #expect(file.stdout == "[\"gym\"]\n[]\n")
    }

    @Test func helpSaysEachDefaultOnceAndNamesTheRightDocs() throws {
        let replay = try runGPSFence(["replay", "--help"])
        #expect(!replay.stdout.contains("(default 7)"), "one default, the parser's")
        #expect(replay.stdout.contains("5m"), "durations with units are shown")
        let run = try runGPSFence(["run", "--help"])
        #expect(run.stdout.contains("--autobaud-window"))
        let simulate = try runGPSFence(["simulate", "--help"])
        #expect(simulate.stdout.contains("docs/hardware.md"))
        #expect(!simulate.stdout.contains("docs/running.md"))
    }

    /// Every command and subcommand, as its help is asked for.
    static let commands: [[String]] = [
        ["run"], ["replay"], ["decode"], ["check"], ["simulate"], ["configure"], ["record"], ["devices"],
        ["doctor"], ["visits"], ["status"], ["report"], ["sync"], ["fences", "lint"], ["fences", "add"],
        ["fences", "import"],
    ]

    /// An option's default is said once: by the help text or by the parser's `(default: ...)`,
    /// never both.
    @Test func everyOptionSaysItsDefaultOnce() throws {
        for command in Self.commands {
            let help = try runGPSFence(command + ["--help"]).stdout
            let lines = help.split(separator: "\n").map(String.init)
            guard let start = lines.firstIndex(of: "OPTIONS:") else { continue }
            // One entry per option: its first line starts with `  -`, continuations are indented.
            var entries: [String] = []
            for line in lines[(start + 1)...] {
                if line.hasPrefix("  -") {
                    entries.append(line)
                } else if !entries.isEmpty {
                    entries[entries.count - 1] += line
                }
            }
            for entry in entries {
                let defaults = entry.lowercased().components(separatedBy: "default").count - 1
                #expect(defaults <= 1, "\(command.joined(separator: " ")): \(entry)")
            }
        }
    }

    /// The help's examples copy and paste: a long command is continued with `\`, never wrapped by
    /// the help formatter into a second line the shell would run on its own (80 columns off a
    /// terminal).
    @Test func helpExamplesAreWholeCommands() throws {
        for command in SmallThingsTests.commands {
            let help = try runGPSFence(command + ["--help"]).stdout
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let start = lines.firstIndex(where: { $0 == "Example:" || $0 == "Examples:" })
            else {
                Issue.record("\(command.joined(separator: " ")): no example")
                continue
            }
            var continued = false
            for line in lines[(start + 1)...] {
                let text = line.trimmingCharacters(in: .whitespaces)
                if text.isEmpty { break }
                // A wrapped remainder starts at the margin, or is a piece that is not a command.
                #expect(line.hasPrefix("  "), "\(command): '\(line)' is a wrapped piece")
                #expect(continued || text.hasPrefix("gpsfence "), "\(command): '\(line)' is a wrapped piece")
                #expect(line.count <= 80, "\(command): '\(line)'")
                continued = text.hasSuffix("\\")
            }
        }
    }
}
