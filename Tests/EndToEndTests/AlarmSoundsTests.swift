import Foundation
import Testing
import Waiting

/// What a sounding alarm does besides the bell (docs/running.md, "Alarms"), with the real binary
/// and the dragging boat of `AlarmTests`, here without a terminal: `--say` says its sentence again
/// at `--alarm-repeat` until the alarm is answered (the real espeak-ng, writing WAV files), and
/// `--notify` puts up one critical notification that stays.
@Suite(.serialized) struct AlarmSoundsTests {
    /// The boat's `run` in the background, its output collected, until the alarm sounds.
    static func sounding(_ folder: URL, extra: [String], environment: [String: String] = [:]) throws -> (
        simulator: BackgroundGPSFence, run: BackgroundGPSFence, output: LineCollector
    ) {
        let (simulator, argv) = try AlarmTests.boat(folder, extra: extra)
        let run = try BackgroundGPSFence(Array(argv.dropFirst()), environment: environment)
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait(timeout: 90) { types($0).contains("alarm") }, "\(output.all)")
        return (simulator, run, output)
    }

    /// `gpsfence ack`, and the run's `alarm_acknowledged`.
    static func answer(_ folder: URL, _ output: LineCollector) throws {
        let ack = try runGPSFence(["ack", "--state", folder.appendingPathComponent("state.sqlite").path])
        #expect(ack.status == 0, "\(ack.stderr)")
        #expect(output.wait(timeout: 10) { types($0).contains("alarm_acknowledged") }, "\(output.all)")
    }

    @Test func theAlarmsSentenceIsSaidAgainUntilItIsAnswered() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") else {
            throw HarnessError(
                "/usr/bin/espeak-ng is missing: install Debian's espeak-ng (scripts/system-packages.txt)")
        }
        let folder = temporaryDirectory()
        let voice = folder.appendingPathComponent("said")
        try FileManager.default.createDirectory(at: voice, withIntermediateDirectories: true)
        /// The WAV files of one kind so far (`0004-alarm.wav` is an alarm's sentence).
        func said(_ kind: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: voice.path).filter { $0.hasSuffix("-\(kind).wav") }
                .count
        }
        let (simulator, run, output) = try Self.sounding(folder, extra: ["--say", "--say-wav", voice.path])
        defer {
            simulator.signal(SIGTERM)
            run.signal(SIGTERM)
            _ = run.finish()
        }
        // `--alarm-repeat 1`: said at once, then again about once a second while it sounds. The
        // repeats are waited for (speech takes CPU, which a loaded machine lends slowly); their
        // pace may be slower than asked, never faster.
        let since = Date()
        let repeated = try waitUntil(timeout: 30) { try said("alarm") >= 3 }
        let whileSounding = try said("alarm")
        let seconds = Date().timeIntervalSince(since)
        #expect(repeated, "\(whileSounding) sentences in \(seconds) s")
        #expect(Double(whileSounding) <= seconds + 3, "\(whileSounding) sentences in \(seconds) s")
        try Self.answer(folder, output)
        // A sentence already being said when the answer came is not counted.
        Thread.sleep(forTimeInterval: 1)
        let answered = try said("alarm")
        // Nothing happens: no sentence for 4 s (four repeats) after the answer.
        Thread.sleep(forTimeInterval: 4)
        #expect(try said("alarm") == answered, "still said after the answer")
        #expect(try said("alarm_acknowledged") == 1)
        #expect(try said("exit") == 1, "the exit that raised it is said once")
    }

    /// A stand-in `notify-send`, first on PATH, records its arguments and, asked `--print-id`,
    /// prints an id as Debian's libnotify-bin does: notify-send itself shows nothing (and fails)
    /// without a desktop session, so the test is of the arguments a real child process received.
    /// The answer replaces the alarm's notification (`--replace-id`), which then expires.
    @Test func theAlarmsNotificationIsCriticalAndStays() throws {
        let folder = temporaryDirectory()
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("notified.jsonl")
        let program = bin.appendingPathComponent("notify-send")
        try """
        #!/usr/bin/env python3
        import json, sys
        with open(\(String(reflecting: log.path)), "a") as out:
            out.write(json.dumps(sys.argv[1:]) + "\\n")
        if "--print-id" in sys.argv[1:]:
            print(4242)
        """.write(to: program, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program.path)
        let (simulator, run, output) = try Self.sounding(
            folder, extra: ["--notify"],
            environment: [
                "PATH": bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + folder.appendingPathComponent("no-bus").path,
            ])
        defer {
            simulator.signal(SIGTERM)
            run.signal(SIGTERM)
            _ = run.finish()
        }
        // Ringing for 3 s (three bells at `--alarm-repeat 1`), then answered.
        Thread.sleep(forTimeInterval: 3)
        try Self.answer(folder, output)
        // Until the answer's notification is out; then nothing more for a second (no bell's).
        func notified() -> [[String]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String]
            }
        }
        #expect(waitUntil { notified().contains { $0.contains("gpsfence: alarm_acknowledged") } }, "\(notified())")
        Thread.sleep(forTimeInterval: 1)
        let calls = notified()
        func notifications(_ kind: String) -> [[String]] { calls.filter { $0.contains("gpsfence: \(kind)") } }
        // One notification that stays up, not one per bell.
        let alarm = notifications("alarm")
        #expect(alarm.count == 1, "\(calls)")
        #expect(alarm.first?.contains("--urgency=critical") == true, "\(alarm)")
        #expect(alarm.first?.contains("--expire-time=0") == true, "\(alarm)")
        #expect(alarm.first?.contains("--print-id") == true, "\(alarm)")
        let exit = notifications("exit")
        #expect(exit.count == 1, "\(calls)")
        #expect(exit.first?.contains("--urgency=normal") == true, "\(exit)")
        #expect(exit.first?.contains { $0.hasPrefix("--expire-time") || $0.hasPrefix("--replace-id") } == false)
        let answered = notifications("alarm_acknowledged")
        #expect(answered.count == 1, "\(calls)")
        #expect(answered.first?.contains("--urgency=normal") == true, "\(answered)")
        #expect(answered.first?.contains("--replace-id=4242") == true, "replaces the alarm's: \(answered)")
        #expect(answered.first?.contains("--expire-time=10000") == true, "then withdrawn: \(answered)")
    }
}
