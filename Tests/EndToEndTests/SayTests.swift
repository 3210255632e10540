import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `--say` (docs/running.md, "Spoken alerts"): the bridge drive replayed, its approach, enter and
/// exit spoken by the real espeak-ng into WAV files that sox measures, and through a given program
/// that records its arguments: one argument per sentence, one sentence at a time, the engine
/// never waiting for the voice.
@Suite(.serialized) struct SayTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-say-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// `sox FILE -n stat`: its length in seconds and maximum amplitude (sox prints them on stderr).
    func measure(_ wav: URL) throws -> (seconds: Double, amplitude: Double) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sox") else {
            throw HarnessError("/usr/bin/sox is missing: install Debian's sox (scripts/system-packages.txt)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
        process.arguments = [wav.path, "-n", "stat"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func value(_ label: String) -> Double {
            let line = text.split(separator: "\n").first { $0.hasPrefix(label) } ?? ""
            return Double(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        }
        return (value("Length (seconds)"), value("Maximum amplitude"))
    }

    @Test func espeakSpeaksEachAlertIntoAWAVFileThatSoxMeasures() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/espeak-ng") else {
            throw HarnessError(
                "/usr/bin/espeak-ng is missing: install Debian's espeak-ng (scripts/system-packages.txt)")
        }
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--json",
            "--say", "--say-wav", folder.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // registered is not spoken; the approach, enter and exit are, in order.
        #expect(files == ["0001-approach.wav", "0002-enter.wav", "0003-exit.wav"], "\(files)")
        var lengths: [Double] = []
        for file in files {
            let (seconds, amplitude) = try measure(folder.appendingPathComponent(file))
            #expect(seconds > 0.5, "\(file): \(seconds) s")
            #expect(amplitude > 0.05, "\(file): amplitude \(amplitude)")
            lengths.append(seconds)
        }
        // "Low bridge 10'6", in 1.6 kilometres" takes longer to say than "Leaving Low bridge 10'6"".
        #expect(lengths.count == 3 && lengths[0] > lengths[2], "\(lengths)")
    }

    @Test func aGivenProgramGetsOneSentenceAsOneArgumentOneAtATime() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("said.jsonl")
        let program = folder.appendingPathComponent("say.py")
        // Records its arguments and when it started and ended; takes a second to "speak".
        try """
        #!/usr/bin/env python3
        import json, sys, time
        start = time.time()
        time.sleep(1.0)
        with open(\(String(reflecting: log.path)), "a") as out:
            out.write(json.dumps({"argv": sys.argv[1:], "start": start, "end": time.time()}) + "\\n")
        """.write(to: program, atomically: true, encoding: .utf8)
        chmod(program.path, 0o755)
        let replay = try BackgroundGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--json",
            "--say", "--say-command", program.path,
        ])
        let output = LineCollector(replay.output.fileHandleForReading)
        // Every event is printed while the first sentence is still being spoken: the voice never
        // holds the engine up.
        #expect(output.wait(timeout: 20) { types($0).contains("exit") }, "\(output.all)")
        let spokenWhenPrinted = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").count
        #expect(spokenWhenPrinted < 3, "the exit was printed only after \(spokenWhenPrinted) sentences")
        let (status, stderr) = replay.finish()
        #expect(status == 0, "\(stderr)")

        let records = try ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let said = records.map { $0["argv"] as? [String] ?? [] }
        #expect(
            said == [
                ["Low bridge 10'6\", in 1.6 kilometres"], ["Entering Low bridge 10'6\""], ["Leaving Low bridge 10'6\""],
            ], "\(said)")
        // One at a time: each sentence starts after the one before ended.
        let spans = records.compactMap { record -> (Double, Double)? in
            guard let start = record["start"] as? Double, let end = record["end"] as? Double else { return nil }
            return (start, end)
        }
        #expect(spans.count == 3 && zip(spans, spans.dropFirst()).allSatisfy { $1.0 >= $0.1 }, "\(spans)")
    }

    @Test func sayOptionsAreCheckedBeforeAnythingRuns() throws {
        let alone = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson",
            "--say-wav", "/tmp",
        ])
        #expect(alone.status == 2 && alone.stderr.contains("--say-wav goes with --say"), "\(alone.stderr)")
        let missing = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", "captures/bridge/fences.geojson", "--say",
            "--say-wav", "/nonexistent/folder",
        ])
        #expect(missing.status == 2 && missing.stderr.contains("not a directory"), "\(missing.stderr)")
    }
}
