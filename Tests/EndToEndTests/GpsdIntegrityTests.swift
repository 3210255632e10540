import Foundation
import SkyScenarios
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The integrity monitor on a gpsd source (docs/running.md, "Trust in the fix"): Debian's real
/// gpsd reads written NMEA from a pseudo-terminal, and `gpsfence run --device gpsd://...` judges
/// the satellites of its SKY reports and the ellipses of its GST reports, as it judges GSV, GSA
/// and GST read from the port. The real gpsfence binary throughout.
@Suite(.serialized) struct GpsdIntegrityTests {
    /// Plays `cycles` through a real gpsd into `run --device gpsd://...` with a depot of 100 m
    /// around the start; returns the run's events once `done` holds for them (or after the
    /// deadline), the run stopped.
    func throughGpsd(_ cycles: [WrittenSky.Cycle], until done: @escaping ([[String: Any]]) -> Bool) throws
        -> [[String: Any]]
    {
        let pty = try NMEAPseudoTerminal()
        let daemon = try GpsdDaemon(port: try freeLoopbackPort(), device: pty.path)
        try warmUp(daemon, pty)
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let depot = try IntegrityReplayTests.depot(radius: 100, in: folder)
        let run = try BackgroundGPSFence([
            "run", "--device", "gpsd://127.0.0.1:\(daemon.port)", "--fences", depot, "--json", "--state",
            folder.appendingPathComponent("state.sqlite").path,
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        guard output.sees(timeout: 15, { $0.contains(#""type":"device_connected""#) }) else {
            run.signal(SIGINT)
            let (_, stderr) = run.finish()
            throw HarnessError("no device_connected from gpsd; output: \(output.all), stderr: \(stderr)")
        }
        let sentences = WrittenSky.nmea(cycles).split(separator: "\r\n").map(String.init)
        // A cycle each 0.1 s: the receiver's clock runs ten times faster than the system's, which
        // the monitor's clock watch takes for a receiver at another rate, never for a step.
        play(sentences[...], into: pty, period: 0.1)
        _ = output.wait(timeout: 30) { lines in done(events(lines)) }
        run.signal(SIGINT)
        let (status, stderr) = run.finish()
        output.finish()
        #expect(status == 0, "\(stderr)")
        return events(output.all)
    }

    /// A jammer's onset at 20 s (C/N0 falling 3 dB-Hz a second on every satellite, satellites
    /// lost, then no fix): `jammed` within 10 s of it, with `cn0_drop`, from gpsd's SKY reports.
    @Test func aJammerIsToldThroughGpsd() throws {
        let seen = try throughGpsd(WrittenSky.jammer(onset: 20, seconds: 45)) { events in
            events.contains { $0["type"] as? String == "integrity" && $0["state"] as? String == "jammed" }
        }
        let integrity = seen.filter { $0["type"] as? String == "integrity" }
        let jammed = try #require(
            integrity.first { $0["state"] as? String == "jammed" }, "\(seen.compactMap { $0["type"] as? String })")
        let second = IntegrityReplayTests.second(jammed) ?? .infinity
        #expect(second >= 20 && second - 20 <= 10, "\(jammed)")
        #expect((jammed["reasons"] as? [String])?.contains("cn0_drop") == true, "\(jammed)")
        #expect(
            !integrity.contains { IntegrityReplayTests.second($0) ?? 0 < 20 }, "nothing before the onset: \(integrity)")
        #expect(!seen.contains { $0["type"] as? String == "exit" }, "a jammed position leaves no depot")
    }

    /// The same sky without a jammer, at rest for 40 s and then driven out of the depot at 10 m/s:
    /// the `exit` comes (every cycle before it was judged) and nothing is said of the integrity.
    @Test func aPlainDriveStaysOK() throws {
        var noise = WrittenSky.Noise(seed: 21)
        var cycles = WrittenSky.atRest(0..<40, noise: &noise)
        for var cycle in WrittenSky.atRest(40..<75, noise: &noise) {
            cycle.east = 10 * (cycle.time - 39)
            cycle.speed = 10
            cycle.course = 90
            cycles.append(cycle)
        }
        let seen = try throughGpsd(cycles) { events in events.contains { $0["type"] as? String == "exit" } }
        #expect(seen.contains { $0["type"] as? String == "exit" }, "\(seen.compactMap { $0["type"] as? String })")
        let integrity = seen.filter { $0["type"] as? String == "integrity" }
        #expect(integrity.isEmpty, "\(integrity)")
    }

    /// The monitor does hear gpsd's sky: its ellipse. A GST semi-major axis of 240 m for a few
    /// cycles is `degraded` with `large_error`, then `ok` again.
    @Test func gpsdsErrorEllipseIsJudged() throws {
        var noise = WrittenSky.Noise(seed: 22)
        var cycles = WrittenSky.atRest(0..<50, noise: &noise)
        for index in 20..<23 { cycles[index].ellipse = 240 }
        let seen = try throughGpsd(cycles) { events in
            events.filter { $0["type"] as? String == "integrity" }.count >= 2
        }
        let integrity = seen.filter { $0["type"] as? String == "integrity" }
        #expect(integrity.first?["state"] as? String == "degraded", "\(integrity)")
        #expect((integrity.first?["reasons"] as? [String])?.contains("large_error") == true, "\(integrity)")
        #expect(integrity.last?["state"] as? String == "ok", "\(integrity)")
    }
}
