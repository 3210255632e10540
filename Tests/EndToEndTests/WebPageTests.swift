import Foundation
import Testing

/// The page of `run --web` in Debian's headless chromium, driven by selenium
/// (Tests/Support/web/page_check.py), loaded from a `run` fed by `simulate`: the position moves,
/// a fence named like an HTML tag stays text, and the Acknowledge button answers a drag's alarm.
/// Screenshots at 360 and 1280 px go to a temporary folder, or to $GPSFENCE_SCREENSHOTS (docs/
/// keeps the ones made so).
@Suite(.serialized) struct WebPageTests {
    @Test func thePageFollowsTheBoatAndAnswersTheAlarm() throws {
        let python = try runProgram("/bin/sh", [packageRoot.appendingPathComponent("scripts/selenium-venv.sh").path])
        #expect(python.status == 0, "\(python.stderr)")
        let interpreter = python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let served = try WebServerTests.serve(extra: ["--anchor", "20", "--alarm"])
        defer { served.stop() }
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(served.port) != nil })
        let shots =
            ProcessInfo.processInfo.environment["GPSFENCE_SCREENSHOTS"].map { URL(fileURLWithPath: $0) }
            ?? served.folder
        let check = try runProgram(
            interpreter,
            [
                packageRoot.appendingPathComponent("Tests/Support/web/page_check.py").path,
                "http://127.0.0.1:\(served.port)/", shots.path, "--ack",
            ])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains(" passed, 0 failed"), "\(check.stdout)")
        for name in ["web-phone.png", "web-laptop.png"] {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(name).path), "\(name)")
        }
        // The answer came from the page: the state file logged it as the web's.
        let events = try HTTPExchange.send(port: served.port, path: "/api/events").json?["events"] as? [[String: Any]]
        let answers = (events ?? []).compactMap { $0["event"] as? [String: Any] }.filter {
            $0["type"] as? String == "alarm_acknowledged"
        }
        #expect(answers.map { $0["by"] as? String } == ["web"], "\(answers)")
    }

    /// A spoofer's takeover rehearsed by `simulate --spoof`: the page's GNSS integrity number comes
    /// to say `spoofed`, in the alarm's colour.
    @Test func thePageSaysWhenTheFixIsSpoofed() throws {
        let python = try runProgram("/bin/sh", [packageRoot.appendingPathComponent("scripts/selenium-venv.sh").path])
        #expect(python.status == 0, "\(python.stderr)")
        let interpreter = python.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let served = try WebServerTests.serve(simulatorExtra: ["--spoof", "15"])
        defer { served.stop() }
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(served.port) != nil })
        let check = try runProgram(
            interpreter,
            [
                packageRoot.appendingPathComponent("Tests/Support/web/page_check.py").path,
                "http://127.0.0.1:\(served.port)/", served.folder.path, "--integrity", "spoofed",
            ])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains(" passed, 0 failed"), "\(check.stdout)")
    }

    /// Runs `program` with `arguments` from the package root; its exit status and output.
    func runProgram(_ program: String, _ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorText = LineCollector(errors.fileHandleForReading)
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorText.finish()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), errorText.all.joined(separator: "\n"))
    }
}
