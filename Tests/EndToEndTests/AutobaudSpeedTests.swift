import Foundation
import Testing

/// How fast the real binary finds a simulated receiver's rate, from `simulate`'s pseudo-terminal at
/// each rate: at the port's own speed, after a hunt past a wrong speed, and with a remembered rate.
/// The bounds are loose (a loaded two-core machine must pass them), yet each fails for a hunt that
/// waits 2.5 s at every wrong rate (115200 at 1 Hz took 9 s that way).
@Suite(.serialized) struct AutobaudSpeedTests {
    static let rates = [4800, 9600, 38400, 57600, 115200, 230400]

    /// A 1 km line, so that a looping simulation never runs out.
    static func route(_ directory: URL) throws -> String {
        let route = directory.appendingPathComponent("route.geojson")
        try #"{"type":"LineString","coordinates":[[-83.7519,42.2806],[-83.7400,42.2806],[-83.7400,42.2850]]}"#
            .write(to: route, atomically: true, encoding: .utf8)
        return route.path
    }

    /// Runs `body` with the pseudo-terminal of `simulate` at `baud` and `hz`.
    func withSimulator(baud: Int, hz: Int, _ body: (String) throws -> Void) throws {
        let directory = temporaryDirectory()
        let simulator = try BackgroundGPSFence([
            "simulate", try Self.route(directory), "--baud", "\(baud)", "--rate", "\(hz)", "--loop",
        ])
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let pty = simulator.readFirstLine()
        try #require(pty.hasPrefix("/dev/pts/"))
        try body(pty)
    }

    /// Leaves the line at `baud`, as another program or the driver might: `stty`, like a user.
    func setSpeed(_ pty: String, _ baud: Int) throws {
        let stty = Process()
        stty.executableURL = URL(fileURLWithPath: "/usr/bin/stty")
        stty.arguments = ["-F", pty, "\(baud)"]
        try stty.run()
        stty.waitUntilExit()
        try #require(stty.terminationStatus == 0)
    }

    /// `decode --device PTY --count 1`: the first usable fix, and the seconds from start to exit.
    func firstFix(_ pty: String, state: URL) throws -> (seconds: Double, result: CommandResult) {
        let started = Date()
        let result = try runGPSFence(
            ["decode", "--device", pty, "--count", "1"], environment: ["XDG_STATE_HOME": state.path])
        return (Date().timeIntervalSince(started), result)
    }

    func rememberedRate(_ pty: String, state: URL) -> String? {
        let file = state.appendingPathComponent("gpsfence/baud-rates")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasSuffix("\t" + pty) }.map { String($0.prefix { $0 != "\t" }) }
    }

    /// The port at the receiver's own speed (what `simulate`, like a driver or the last program,
    /// left): the first fix within about a second at 1 Hz, at every rate.
    @Test(arguments: rates) func theFirstFixAtThePortsOwnSpeedComesOnTheFirstBurst(baud: Int) throws {
        try withSimulator(baud: baud, hz: 1) { pty in
            let state = temporaryDirectory()
            let (seconds, result) = try firstFix(pty, state: state)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("at \(baud) baud"), "\(result.stderr)")
            #expect(decodedFixes(result.stdout).first?["lat"] != nil, "\(result.stdout)")
            #expect(seconds < 3, "\(seconds) s at \(baud)")
            #expect(rememberedRate(pty, state: state) == "\(baud)")
        }
    }

    /// A fresh device left at a wrong speed, 10 Hz: every wrong rate is left on its garbage, so
    /// even 230400, last of the list behind six wrong rates (15 s of windows before), comes fast.
    @Test(arguments: rates) func aHuntFromAWrongSpeedLeavesEachWrongRateOnItsGarbage(baud: Int) throws {
        try withSimulator(baud: baud, hz: 10) { pty in
            let state = temporaryDirectory()
            try setSpeed(pty, baud == 9600 ? 4800 : 9600)
            let (seconds, result) = try firstFix(pty, state: state)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("at \(baud) baud"), "\(result.stderr)")
            #expect(decodedFixes(result.stdout).first?["lat"] != nil, "\(result.stdout)")
            #expect(seconds < 5, "\(seconds) s at \(baud)")
            #expect(rememberedRate(pty, state: state) == "\(baud)")
        }
    }

    /// 115200 at 1 Hz from a port left at 9600: three wrong rates (9600, 4800, 38400), each left on
    /// the garbage of the first burst it hears instead of after 2.5 s, so the rate is settled well
    /// within 2.5 s (the old hunt spent 7.5 s before 115200). The first fix comes up to two cycles
    /// later (the first whole epoch, emitted when the next begins).
    @Test func aHuntAtOneHertzSettlesWithinBurstsNotWindows() throws {
        try withSimulator(baud: 115200, hz: 1) { pty in
            let state = temporaryDirectory()
            try setSpeed(pty, 9600)
            let started = Date()
            let decode = try BackgroundGPSFence(
                ["decode", "--device", pty, "--count", "1"], environment: ["XDG_STATE_HOME": state.path])
            let said = firstLineOf(decode.errors)
            let settled = Date().timeIntervalSince(started)
            let fix = firstLineOf(decode.output)
            let seconds = Date().timeIntervalSince(started)
            let (status, _) = decode.finish()
            #expect(status == 0)
            #expect(said.contains("at 115200 baud"), "\(said)")
            #expect(settled < 2.5, "rate settled after \(settled) s")
            #expect(decodedFixes(fix).first?["lat"] != nil, "\(fix)")
            #expect(seconds < 5, "first fix after \(seconds) s")
        }
    }

    /// A remembered device left at a wrong speed: the current speed, then the remembered rate, and
    /// nothing else (`record` says each rate it listens at).
    @Test(arguments: [4800, 57600, 230400]) func theRememberedRateComesRightAfterTheCurrentSpeed(baud: Int) throws {
        try withSimulator(baud: baud, hz: 1) { pty in
            let state = temporaryDirectory()
            try FileManager.default.createDirectory(
                at: state.appendingPathComponent("gpsfence"), withIntermediateDirectories: true)
            try "\(baud)\t\(pty)\n".write(
                to: state.appendingPathComponent("gpsfence/baud-rates"), atomically: true, encoding: .utf8)
            let wrong = baud == 9600 ? 4800 : 9600
            try setSpeed(pty, wrong)
            let capture = state.appendingPathComponent("capture.nmea")
            let started = Date()
            let result = try runGPSFence(
                ["record", "--device", pty, "--output", capture.path, "--duration", "0.1"],
                environment: ["XDG_STATE_HOME": state.path])
            let seconds = Date().timeIntervalSince(started)
            #expect(result.status == 0, "\(result.stderr)")
            let listened = result.stderr.split(separator: "\n").filter { $0.contains("listening at") }
            #expect(listened.count == 2, "\(result.stderr)")
            #expect(listened.first?.contains("at \(wrong) baud") == true, "\(result.stderr)")
            #expect(listened.last?.contains("at \(baud) baud") == true, "\(result.stderr)")
            #expect(seconds < 4.5, "\(seconds) s")
            #expect(rememberedRate(pty, state: state) == "\(baud)")
        }
    }
}
