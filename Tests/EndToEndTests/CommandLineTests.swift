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
