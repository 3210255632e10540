import Foundation
import Testing

/// `gpsfence configure` against `gpsfence simulate --receiver ...` on a real pseudo-terminal: the
/// real binary on both ends (docs/hardware.md).
@Suite(.serialized) struct ConfigureCommandTests {
    /// A straight 3 km line walked at 10 m/s, looped: the simulator never runs out.
    func route() throws -> URL {
        let directory = temporaryDirectory()
        let url = directory.appendingPathComponent("line.geojson")
        let line = #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7150,42.2806]]}"#
        try line.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func simulator(_ extra: [String]) throws -> (BackgroundGPSFence, String) {
        let simulator = try BackgroundGPSFence(["simulate", try route().path, "--speed", "10", "--loop"] + extra)
        return (simulator, simulator.readFirstLine())
    }

    func report(_ result: CommandResult) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// Distinct RMC times in a capture, in order, as milliseconds of the day.
    func rmcTimes(_ capture: String) -> [Int] {
        var times: [Int] = []
        // A sentence cut off at the end of the recording (no checksum yet) does not count.
        for line in capture.split(whereSeparator: \.isNewline) where line.hasPrefix("$GPRMC,") && line.contains("*") {
            let field = line.split(separator: ",", omittingEmptySubsequences: false)[1]
            guard let whole = Int(field.prefix(6)), let fraction = Double("0" + field.dropFirst(6)) else { continue }
            let ms = (whole / 10000 * 3600 + whole / 100 % 100 * 60 + whole % 100) * 1000 + Int(fraction * 1000)
            if times.last != ms { times.append(ms) }
        }
        return times
    }

    /// What the receiver sends now, recorded by `gpsfence record` at `baud`.
    func record(_ pty: String, baud: Int, seconds: Double) throws -> String {
        let capture = temporaryDirectory().appendingPathComponent("after.nmea")
        let result = try runGPSFence(
            [
                "record", "--device", pty, "--baud", String(baud), "--duration", String(seconds), "--output",
                capture.path,
            ],
            environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        return (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
    }

    @Test func anM8TakesRateSentencesAndBaudThroughLegacyMessages() throws {
        let (simulator, pty) = try simulator(["--receiver", "ublox-m8"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let result = try runGPSFence(
            [
                "configure", "--device", pty, "--rate", "5", "--sentences", "RMC,GGA", "--baud", "38400", "--save",
                "--json",
            ],
            environment: [:])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let json = report(result)
        #expect((json["receiver"] as? String)?.contains("NEO-M8N") == true, "\(result.stdout)")
        #expect(json["interface"] as? String == "ubx-cfg")
        let steps = json["steps"] as? [[String: Any]] ?? []
        #expect(steps.contains { ($0["command"] as? String)?.hasPrefix("UBX-CFG-RATE 200") == true })
        #expect(steps.contains { ($0["command"] as? String)?.hasPrefix("UBX-CFG-CFG") == true })
        #expect(steps.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(steps)")
        let verified = json["verified"] as? [String: Any] ?? [:]
        #expect(verified["baud"] as? Int == 38400)
        #expect(verified["sentences"] as? [String] == ["GGA", "RMC"])

        // Seen by another reader: RMC at 5 Hz, on 38400 baud, and nothing but RMC and GGA.
        let capture = try record(pty, baud: 38400, seconds: 2)
        let times = rmcTimes(capture)
        #expect(times.count >= 7, "\(capture)")
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 == 200 }, "\(gaps)")
        #expect(!capture.contains("$GPGSV") && !capture.contains("$GPVTG") && capture.contains("$GPGGA"))
    }

    @Test func anM10TakesItThroughValueSet() throws {
        let (simulator, pty) = try simulator(["--receiver", "ublox-m10"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let result = try runGPSFence(
            ["configure", "--device", pty, "--rate", "2", "--sentences", "RMC,GGA,GSA", "--json"], environment: [:])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let json = report(result)
        #expect((json["receiver"] as? String)?.contains("MAX-M10S") == true, "\(result.stdout)")
        #expect(json["interface"] as? String == "ubx-valset")
        let verified = json["verified"] as? [String: Any] ?? [:]
        #expect(verified["fix_rate_hz"] as? Int == 2, "\(verified)")
        #expect(verified["sentences"] as? [String] == ["GGA", "GSA", "RMC"])
        let times = rmcTimes(try record(pty, baud: 9600, seconds: 2))
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 == 500 } && times.count >= 3, "\(times)")
    }

    @Test func aMediaTekTakesRateWithItsFixRateAndFollowsTheBaud() throws {
        let (simulator, pty) = try simulator(["--receiver", "mtk"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let state = temporaryDirectory()
        let result = try runGPSFence(
            ["configure", "--device", pty, "--rate", "5", "--sentences", "RMC,GGA", "--baud", "38400"],
            environment: ["XDG_STATE_HOME": state.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("receiver: MediaTek PA6H"), "\(result.stdout)")
        // The new baud is remembered for the device, for the next run's autobaud.
        let remembered = (try? String(contentsOfFile: state.path + "/gpsfence/baud-rates", encoding: .utf8)) ?? ""
        #expect(remembered.contains(pty) && remembered.contains("38400"), "\(remembered)")
        #expect(result.stdout.contains("$PMTK220 output every 200 ms: accepted"))
        #expect(result.stdout.contains("$PMTK300 fix every 200 ms: accepted"))
        #expect(result.stdout.contains("now sending: GGA,RMC at 5 Hz, 38400 baud"), "\(result.stdout)")
        let times = rmcTimes(try record(pty, baud: 38400, seconds: 2))
        #expect(times.count >= 7 && zip(times.dropFirst(), times).allSatisfy { $0 - $1 == 200 }, "\(times)")
        // A reader still at the old rate gets framing garbage, as from a real UART.
        #expect(rmcTimes(try record(pty, baud: 9600, seconds: 1.5)).isEmpty)
    }

    @Test func aRefusedCommandIsReportedWithStatusThree() throws {
        // MediaTek takes output and fix intervals of 100 ms and more: 25 Hz is refused.
        let (simulator, pty) = try simulator(["--receiver", "mtk"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let result = try runGPSFence(
            ["configure", "--device", pty, "--rate", "25", "--sentences", "RMC", "--baud", "115200"], environment: [:])
        #expect(result.status == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("$PMTK220 output every 40 ms: REFUSED (PMTK001 flag 2"), "\(result.stdout)")
        #expect(result.stdout.contains("error: the receiver refused $PMTK220"))
    }

    @Test func aReceiverThatDoesNotAnswerTimesOutWithStatusFourAndIsLeftAlone() throws {
        let (simulator, pty) = try simulator([])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let started = Date()
        let result = try runGPSFence(
            ["configure", "--device", pty, "--rate", "2", "--timeout", "0.5"], environment: [:])
        #expect(result.status == 4, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("did not answer UBX-MON-VER or $PMTK605"), "\(result.stdout)")
        #expect(result.stdout.contains("nothing was changed"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func aRateTheLineCannotCarryIsRefusedBeforeAnythingIsSent() throws {
        let (simulator, pty) = try simulator(["--receiver", "ublox-m8"])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        // 10 Hz of RMC, GGA, GSA and GSV is 5140 bytes/s; 9600 baud carries 960.
        let result = try runGPSFence(
            ["configure", "--device", pty, "--rate", "10", "--sentences", "RMC,GGA,GSA,GSV"], environment: [:])
        #expect(result.status == 2, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("5140 bytes/s"), "\(result.stderr)")
        #expect(result.stderr.contains("do not fit 9600 baud (960 bytes/s, 85 % of it usable)"))
        // Nothing was sent: the receiver still sends its 1 Hz default set.
        let capture = try record(pty, baud: 9600, seconds: 2.5)
        let times = rmcTimes(capture)
        #expect(capture.contains("$GPGSV"), "\(capture)")
        #expect(times.count >= 2 && zip(times.dropFirst(), times).allSatisfy { $0 - $1 >= 1000 }, "\(times)")

        let bad = try runGPSFence(["configure", "--device", pty, "--rate", "0"], environment: [:])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--rate must be 0.1 to 25 Hz, not 0"), "\(bad.stderr)")
    }
}

@Suite(.serialized) struct ReceiverIdentityTests {
    @Test func doctorNamesTheModelWhenTheReceiverAnswersAndSaysSoWhenItDoesNot() throws {
        let route = temporaryDirectory().appendingPathComponent("line.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7150,42.2806]]}"#.write(
            to: route, atomically: true, encoding: .utf8)
        for (receiver, expected) in [
            ("mtk", "receiver: MediaTek PA6H, AXN_2.31_3339_13101700 (answered $PMTK605)"),
            ("ublox-m8", "receiver: u-blox NEO-M8N, SPG 3.01, protocol 18.00 (answered UBX-MON-VER)"),
            (nil, "the receiver did not answer UBX-MON-VER or $PMTK605"),
        ] {
            let simulator = try BackgroundGPSFence(
                ["simulate", route.path, "--speed", "10", "--loop"] + (receiver.map { ["--receiver", $0] } ?? []))
            let pty = simulator.readFirstLine()
            let doctor = try runGPSFence(["doctor", "--device", pty, "--autobaud-window", "1"], environment: [:])
            simulator.signal(SIGTERM)
            _ = simulator.finish()
            #expect(doctor.status == 0, "\(doctor.stdout)")
            #expect(doctor.stdout.contains(expected), "\(doctor.stdout)")
        }
    }
}
