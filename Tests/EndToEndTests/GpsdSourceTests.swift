import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// `--device gpsd://...` against Debian's real gpsd, fed NMEA through a real pseudo-terminal
/// (docs/hardware.md). The real gpsfence binary throughout.
@Suite(.serialized) struct GpsdSourceTests {
    let bridge = "captures/bridge/capture.nmea"
    let bridgeFences = "captures/bridge/fences.geojson"

    /// A gpsd on a free port, synced to a pty, and `gpsfence run` connected to it.
    struct Running {
        let pty: NMEAPseudoTerminal
        var daemon: GpsdDaemon
        let run: BackgroundGPSFence
        let output: LineCollector
    }

    func startRun(device: Bool = false, options: [String] = []) throws -> Running {
        let pty = try NMEAPseudoTerminal()
        let daemon = try GpsdDaemon(port: try freeLoopbackPort(), device: pty.path)
        try warmUp(daemon, pty)
        let directory = temporaryDirectory()
        let url = "gpsd://127.0.0.1:\(daemon.port)" + (device ? pty.path : "")
        let run = try BackgroundGPSFence(
            [
                "run", "--device", url, "--fences", bridgeFences, "--json", "--state",
                directory.appendingPathComponent("state.sqlite").path,
            ] + options)
        let output = LineCollector(run.output.fileHandleForReading)
        // gpsd's DEVICES answer to the watch names the open device: the client is watching.
        guard output.sees(timeout: 15, { $0.contains(#""type":"device_connected""#) }) else {
            run.signal(SIGINT)
            let (_, stderr) = run.finish()
            throw HarnessError("no device_connected from gpsd; output: \(output.all), stderr: \(stderr)")
        }
        return Running(pty: pty, daemon: daemon, run: run, output: output)
    }

    @Test func aCaptureThroughGpsdGivesTheSameFenceEventsAsReplay() throws {
        let replay = try runGPSFence(["replay", bridge, "--fences", bridgeFences, "--json"])
        #expect(replay.status == 0)
        let expected = fenceEvents(events(replay.stdout.split(separator: "\n").map(String.init)))
        // The scenario's README: approach a mile ahead, enter under the bridge, exit past it.
        #expect(expected == ["approach bridge-1", "enter bridge-1", "exit bridge-1"])

        let running = try startRun(device: true)
        play(try captureSentences(bridge)[...], into: running.pty)
        #expect(running.output.sees(timeout: 10, { $0.contains(#""type":"exit""#) }), "\(running.output.all)")
        usleep(300_000)  // nothing more: no late event or error after the exit
        running.run.signal(SIGINT)
        let (status, stderr) = running.run.finish()
        #expect(status == 0, "\(stderr)")
        let seen = events(running.output.all)
        #expect(fenceEvents(seen) == expected)
        let errors: [[String: Any]] = seen.filter { $0["type"] as? String == "error" }
        #expect(errors.isEmpty, "\(errors)")
        let connected: [String: Any]? = seen.first { $0["type"] as? String == "device_connected" }
        let message: String = connected?["message"] as? String ?? ""
        #expect(message.contains("gpsd://127.0.0.1:\(running.daemon.port)\(running.pty.path)"))
    }

    /// Satellites in view, as a receiver's GSV cycle says them (checksums written here): gpsd sends
    /// SKY only once it has a GSV cycle, and counts as used the PRNs of the GSA before it.
    static let satellitesInView = [
        "$GPGSV,3,1,10,02,40,050,40,05,30,120,38,07,60,200,42,13,20,300,35*73",
        "$GPGSV,3,2,10,15,45,080,41,18,25,150,37,20,70,250,44,30,15,330,33*7A",
        "$GPGSV,3,3,10,09,10,010,20,11,05,100,18*7E",
    ]

    /// Home Assistant's satellites sensor has its value through gpsd too: TPV does not say how
    /// many satellites are used, SKY does (`uSat`: the capture's GSA lists 8 of the 10 in view).
    @Test func satellitesUsedReachHomeAssistantThroughGpsd() throws {
        let broker = try MosquittoBroker()
        let running = try startRun(options: [
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/boat", "--homeassistant", "--mqtt-location-interval", "0",
        ])
        let sentences = try captureSentences(bridge).flatMap { sentence in
            sentence.dropFirst(3).hasPrefix("GSA") ? [sentence] + Self.satellitesInView : [sentence]
        }
        play(sentences[...], into: running.pty)
        #expect(running.output.sees(timeout: 10, { $0.contains(#""type":"exit""#) }), "\(running.output.all)")
        let topic = "fleet/boat/homeassistant/receiver"
        let receiver = jsonObject(try broker.retained(topic)[topic])
        running.run.signal(SIGINT)
        #expect(running.run.finish().status == 0)
        #expect(receiver?["satellites"] as? Int == 8, "\(String(describing: receiver))")
    }

    @Test func gpsdKilledAndRestartedGivesLostOneErrorConnectedAndEventsResume() throws {
        var running = try startRun()
        let sentences = try captureSentences(bridge)
        // Up to t = 60 s: the approach (t = 36), not yet the bridge (t = 100).
        let cut = sentences.firstIndex { $0.hasPrefix("$GPGGA,101600") }!
        play(sentences[..<cut], into: running.pty)
        #expect(running.output.sees(timeout: 10, { $0.contains(#""type":"approach""#) }))

        running.daemon.kill(SIGKILL)
        #expect(running.output.sees(timeout: 10, { $0.contains(#""type":"device_lost""#) }))
        // Until a reconnect is refused (an error) before gpsd comes back.
        #expect(running.output.sees(timeout: 30, { $0.contains(#""type":"error""#) }), "\(running.output.all)")
        running.daemon = try GpsdDaemon(port: running.daemon.port, device: running.pty.path)
        try warmUp(running.daemon, running.pty)
        #expect(running.output.sees(timeout: 30, count: 2, { $0.contains(#""type":"device_connected""#) }))
        play(sentences[cut...], into: running.pty)
        #expect(running.output.sees(timeout: 10, { $0.contains(#""type":"exit""#) }))
        running.run.signal(SIGINT)
        let (status, stderr) = running.run.finish()
        #expect(status == 0, "\(stderr)")

        let seen = events(running.output.all)
        let watched: Set<String> = ["device_lost", "device_connected", "error", "approach", "enter", "exit"]
        let kinds: [String] = seen.compactMap { $0["type"] as? String }.filter { watched.contains($0) }
        #expect(
            kinds == ["device_connected", "approach", "device_lost", "error", "device_connected", "enter", "exit"],
            "\(kinds)")
        let errorEvent: [String: Any]? = seen.first { $0["type"] as? String == "error" }
        let error: String = errorEvent?["message"] as? String ?? ""
        #expect(error.contains("127.0.0.1:\(running.daemon.port)"), "the error names host and port: \(error)")
    }

    @Test func recordThroughGpsdWritesSentencesThatDecodeToTheSameFixes() throws {
        let pty = try NMEAPseudoTerminal()
        let daemon = try GpsdDaemon(port: try freeLoopbackPort(), device: pty.path)
        try warmUp(daemon, pty)
        let capture = temporaryDirectory().appendingPathComponent("via-gpsd.nmea")
        let url = "gpsd://127.0.0.1:\(daemon.port)\(pty.path)"
        let record = try BackgroundGPSFence(["record", "--device", url, "--output", capture.path])
        // The header goes out once gpsd has answered the watch: from then on, sentences are kept.
        #expect(
            waitUntil(timeout: 15) {
                (try? String(contentsOf: capture, encoding: .utf8))?.contains("# start: ") ?? false
            }, "record never wrote its header")
        play(try captureSentences(bridge)[...], into: pty)
        // Until the capture holds every fix played.
        #expect(
            try waitUntil(timeout: 30, every: 0.5) {
                decodedFixes(try runGPSFence(["decode", capture.path]).stdout).count >= 121
            }, "the capture never held every fix")
        record.signal(SIGINT)
        let (status, stderr) = record.finish()
        #expect(status == 0, "\(stderr)")

        let text = try String(contentsOf: capture, encoding: .utf8)
        #expect(text.hasPrefix("# gpsfence record\n# device: \(url)\n# gpsd: 3."))
        let recorded = try runGPSFence(["decode", capture.path])
        let original = try runGPSFence(["decode", bridge])
        #expect(recorded.status == 0 && original.status == 0)
        let originalFixes = original.stdout.split(separator: "\n")
        #expect(originalFixes.count == 121)
        #expect(recorded.stdout.split(separator: "\n") == originalFixes)
    }

    @Test func doctorChecksConnectionVersionDevicesAndFixes() throws {
        let pty = try NMEAPseudoTerminal()
        let daemon = try GpsdDaemon(port: try freeLoopbackPort(), device: pty.path)
        try warmUp(daemon, pty)
        let sentences = try captureSentences(bridge)
        nonisolated(unsafe) let playing = pty
        let player = Thread { play(sentences[...], into: playing, period: 0.03) }
        player.start()
        let result = try runGPSFence([
            "doctor", "--device", "gpsd://127.0.0.1:\(daemon.port)\(pty.path)", "--autobaud-window", "1",
        ])
        #expect(result.status == 0, "\(result.stdout)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("connected to gpsd at 127.0.0.1:\(daemon.port)") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("gpsd 3.") && $0.contains("protocol 3.") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains(pty.path) && $0.contains("NMEA0183") })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("TPV reports") && $0.contains("3D at 42.28") })
        while !player.isFinished { usleep(50_000) }

        daemon.kill(SIGKILL)
        let refused = try runGPSFence(["doctor", "--device", "gpsd://127.0.0.1:\(daemon.port)"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("PROBLEM cannot connect to gpsd at 127.0.0.1:\(daemon.port)"))
        #expect(refused.stdout.contains("Connection refused"))
    }

    @Test func garbageHugeLinesAndWrongShapesAreSkippedAndDeviceReportsGiveLostAndConnected() throws {
        var script = #"{"class":"VERSION","release":"9.9","rev":"x","proto_major":3,"proto_minor":14}"# + "\n"
        script +=
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/fake","activated":"2026-02-03T10:14:00.000Z"}]}"#
            + "\n"
        var bytes = Array(script.utf8)
        bytes += [0x00, 0xFF, 0x1B] + Array("[31mnot json at all\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 10_000_000) + [0x0A]  // a 10 MB line
        bytes += Array(
            (#"[1,2,3]"# + "\n" + #"{"class":"# + "\n" + #"{"class":"TPV","mode":"3","lat":"x"}"# + "\n").utf8)
        // Under the bridge (the centre of fence bridge-1), three fixes a second apart.
        for second in 0..<3 {
            bytes += Array(
                (#"{"class":"TPV","device":"/dev/fake","mode":3,"time":"2026-02-03T10:16:0\#(second).000Z","lat":42.280597,"lon":-83.751891,"speed":1.0,"track":90.0,"eph":5.0}"#
                    + "\n").utf8)
        }
        bytes += Array((#"{"class":"DEVICE","path":"/dev/fake","activated":0}"# + "\n").utf8)
        bytes += Array((#"{"class":"DEVICE","path":"/dev/fake","activated":"2026-02-03T10:16:09.000Z"}"# + "\n").utf8)
        let server = try ScriptedGpsd(script: bytes)
        defer { server.close() }
        let run = try BackgroundGPSFence(
            [
                "run", "--device", "gpsd://127.0.0.1:\(server.port)", "--fences", bridgeFences, "--json",
                "--state", temporaryDirectory().appendingPathComponent("state.sqlite").path,
            ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.sees(timeout: 20, count: 2, { $0.contains(#""type":"device_connected""#) }), "\(output.all)")
        run.signal(SIGINT)
        let (status, stderr) = run.finish()
        #expect(status == 0, "\(stderr)")
        #expect(server.watch == #"?WATCH={"enable":true,"json":true}"#)
        let seen = events(output.all)
        let kinds = seen.compactMap { $0["type"] as? String }.filter { $0 != "registered" }
        #expect(kinds == ["device_connected", "error", "enter", "device_lost", "device_connected"], "\(kinds)")
        let error: String = seen.first { $0["type"] as? String == "error" }?["message"] as? String ?? ""
        #expect(error.contains("127.0.0.1:\(server.port)") && error.contains("skipped"), "\(error)")
        let connected: String = seen.first { $0["type"] as? String == "device_connected" }?["message"] as? String ?? ""
        #expect(connected.contains("gpsd 9.9"))
    }

    @Test func aNamedDeviceThatGpsdDoesNotHaveIsSaid() throws {
        let script =
            #"{"class":"VERSION","release":"3.22","rev":"x","proto_major":3,"proto_minor":14}"# + "\n"
            + #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/fake","activated":"2026-02-03T10:14:00.000Z"}]}"#
            + "\n"
        let server = try ScriptedGpsd(script: Array(script.utf8))
        defer { server.close() }
        let run = try BackgroundGPSFence(
            [
                "run", "--device", "gpsd://127.0.0.1:\(server.port)/dev/other", "--fences", bridgeFences, "--json",
                "--state", temporaryDirectory().appendingPathComponent("state.sqlite").path,
            ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.sees(timeout: 20, { $0.contains(#""type":"error""#) }), "\(output.all)")
        run.signal(SIGINT)
        #expect(run.finish().status == 0)
        #expect(server.watch == #"?WATCH={"enable":true,"json":true,"device":"/dev/other"}"#)
        let seen = events(output.all)
        #expect(!seen.contains { $0["type"] as? String == "device_connected" })
        let error: String = seen.first { $0["type"] as? String == "error" }?["message"] as? String ?? ""
        #expect(
            error == "gpsd at 127.0.0.1:\(server.port) has no device /dev/other (its devices: /dev/fake)", "\(error)")
    }

    @Test func aMalformedGpsdAddressIsBadUsage() throws {
        let result = try runGPSFence(["run", "--device", "gpsd://localhost:http", "--fences", bridgeFences])
        #expect(result.status == 2)
        #expect(result.stderr.contains("gpsd://[HOST][:PORT][/DEVICE]"))
        #expect(result.stderr.contains("'http'"))
    }
}
