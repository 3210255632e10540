import Foundation
import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the command line says to someone who gets it wrong, run through the built binary.
@Suite struct CommandLineTests {
    static let capture = "captures/gym/capture.nmea"
    static let fences = "captures/gym/fences.geojson"

    /// sysexits.h's EX_USAGE: a script that forgot the command must not see success.
    @Test func noCommandPrintsTheUsageAndExits64() throws {
        let result = try runGPSFence([])
        #expect(result.status == 64)
        #expect(result.stderr.contains("USAGE: gpsfence"), "\(result.stderr)")
        #expect(result.stderr.contains("replay"), "the subcommands are listed")
    }

    /// A misspelt subcommand or option gets the one meant, exit 2; `gpsfence fences` alone shows
    /// its usage and exits 64 as `gpsfence` alone does.
    @Test func misspeltWordsGetASuggestion() throws {
        for (arguments, words) in [
            (["rn"], "unknown command 'rn' for 'gpsfence'; did you mean 'run'?"),
            (["fences", "lnt", "x.geojson"], "did you mean 'lint'?"),
            (
                ["replay", Self.capture, "--fence", Self.fences],
                "unknown option '--fence' for 'gpsfence replay'; did you mean '--fences'?"
            ),
            (["status", "--stat", "x.sqlite"], "did you mean '--state'?"),
        ] {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        let fences = try runGPSFence(["fences"])
        #expect(fences.status == 64, "\(fences.stderr)")
        #expect(fences.stderr.contains("USAGE: gpsfence fences"), "\(fences.stderr)")
    }

    /// The same missing state file is bad input (exit 2) in every command that reads one.
    @Test func aMissingStateFileExitsTwoEverywhere() throws {
        let missing = temporaryDirectory().appendingPathComponent("none.sqlite").path
        for command in [["ack"], ["status"], ["visits"]] {
            let result = try runGPSFence(command + ["--state", missing])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("no state file at '\(missing)'"), "\(command): \(result.stderr)")
        }
    }

    /// A vehicle height no road vehicle has is refused with the unit it was surely meant in; a
    /// decimal comma is read as the fence imports read it.
    @Test func vehicleHeightsAreChecked() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        for (height, words) in [
            ("350", "centimetres? write --vehicle-height 3.5"), ("13.5", #"feet? write --vehicle-height "13.5 ft""#),
        ] {
            let result = try runGPSFence([
                "replay", Self.capture, "--fences", Self.fences, "--vehicle-height", height, "--state", state,
            ])
            #expect(result.status == 2, "\(height): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(height): \(result.stderr)")
        }
        let comma = try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--vehicle-height", "3,5"])
        #expect(comma.status == 0, "\(comma.stderr)")
    }

    /// A minus sign reaches the check of the value: the message names the option and says the
    /// value must be positive, rather than taking `-5` for an option and saying "Missing value".
    @Test func negativeValuesAreSaidToBePositive() throws {
        let cases: [([String], String)] = [
            (["replay", Self.capture, "--fences", Self.fences, "--dwell", "-5"], "--dwell must be positive"),
            (["replay", Self.capture, "--fences", Self.fences, "--stale", "-5"], "--stale must be positive"),
            (
                ["replay", Self.capture, "--fences", Self.fences, "--max-accuracy", "-1"],
                "--max-accuracy must be positive"
            ),
            (
                ["replay", Self.capture, "--fences", Self.fences, "--exit-confirm", "-2"],
                "--exit-confirm must be positive"
            ),
            (["replay", Self.capture, "--fences", Self.fences, "--approach", "-50"], "--approach must be positive"),
            (
                ["replay", Self.capture, "--fences", Self.fences, "--approach-kinds", "bridges"],
                "--approach-kinds wants one or more of restrictions, plain, speed-limits, passable, all, separated by commas, "
                    + "not 'bridges'"
            ),
            (["replay", Self.capture, "--fences", Self.fences, "--keep-days", "-1"], "--keep-days must be positive"),
            (["record", "--output", "/tmp/never.nmea", "--duration", "-3"], "--duration must be positive"),
            (["replay", Self.capture, "--fences", Self.fences, "--speed", "-2"], "--speed must be positive"),
            (["check", "--fences", Self.fences, "--nearest", "-3", "1", "2"], "--nearest must be positive or 0"),
            (["status", "--watch", "--interval", "-1"], "--interval must be positive"),
            (["decode", "--device", "/dev/null", "--count", "-1"], "--count must be positive"),
        ]
        for (arguments, message) in cases {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(arguments): \(result.stderr)")
        }
    }

    /// `--interval` only paces `--watch`; alone it would be ignored without a word.
    @Test func intervalWithoutWatchIsRefused() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let result = try runGPSFence(["status", "--state", state, "--interval", "2s"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--interval"), "\(result.stderr)")
        #expect(result.stderr.contains("--watch"), "\(result.stderr)")
    }

    /// `gpsfence decode` typed without a file waits on the terminal: it says so, and how to end it.
    @Test func decodeOnATerminalSaysItReadsStandardInput() throws {
        let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
        defer { terminal.close() }
        let input = try #require(FileHandle(forReadingAtPath: terminal.slavePath))
        let process = Process()
        process.executableURL = gpsfenceBinary()
        process.arguments = ["decode"]
        process.currentDirectoryURL = packageRoot
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        try? input.close()
        // The notice comes before any input: until it is said, then stop the process.
        let notice = LineCollector(errors.fileHandleForReading)
        #expect(notice.wait { $0.contains { $0.contains("Ctrl-D") } }, "\(notice.all)")
        process.terminate()
        process.waitUntilExit()
        notice.finish()
        let said = notice.all.joined(separator: "\n")
        #expect(said.contains("reading NMEA from standard input"), "\(said)")
        #expect(said.contains("Ctrl-D"), "\(said)")

        // From a pipe nothing is waited for by a person: no notice.
        let piped = try runGPSFence(["decode"], stdin: Data())
        #expect(!piped.stderr.contains("standard input"), "\(piped.stderr)")
    }
}
