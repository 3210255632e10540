import Foundation
import Testing

/// `gpsfence simulate --jam` and `--spoof` through the real binary, recorded off a real
/// pseudo-terminal by `gpsfence record` and read back as NMEA text (docs/running.md).
@Suite(.serialized) struct InterferenceSimulationTests {
    static let parked = (lat: 42.2806, lon: -83.7519)

    /// A vehicle parked for `seconds`: a GPX of two timed points at the same place.
    func parkedRoute(seconds: Int) throws -> URL {
        let url = temporaryDirectory().appendingPathComponent("parked.gpx")
        let point = #"lat="\#(Self.parked.lat)" lon="\#(Self.parked.lon)""#
        let text =
            #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"#
            + #"<trkpt \#(point)><time>2026-02-03T10:15:00Z</time></trkpt>"#
            + #"<trkpt \#(point)><time>2026-02-03T10:15:\#(seconds)Z</time></trkpt>"#
            + "</trkseg></trk></gpx>\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Plays the route with `extra` flags to its end and returns what the receiver sent, one
    /// epoch (from one RMC to the next) at a time, as sentence lines.
    func playAndRecord(_ route: URL, _ extra: [String]) throws -> [[String]] {
        let directory = temporaryDirectory()
        let simulator = try BackgroundGPSFence(["simulate", route.path] + extra)
        let pty = simulator.readFirstLine()
        #expect(pty.hasPrefix("/dev/pts/"))
        let capture = directory.appendingPathComponent("capture.nmea")
        let record = try runGPSFence(
            ["record", "--device", pty, "--output", capture.path, "--duration", "60", "--baud", "9600"],
            environment: ["XDG_STATE_HOME": directory.path])
        // The simulator's end is a hang-up: the recording stops there, complete.
        #expect(record.status == 1, "\(record.stderr)")
        #expect(simulator.finish().status == 0)
        let text = try String(contentsOf: capture, encoding: .utf8)
        var epochs: [[String]] = []
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("$") && line.contains("*") {
            if line.hasPrefix("$GPRMC") || epochs.isEmpty { epochs.append([]) }
            epochs[epochs.count - 1].append(String(line.dropFirst().prefix { $0 != "*" }))
        }
        return epochs.filter { $0.first?.hasPrefix("GPRMC") == true }
    }

    func fields(_ epoch: [String], _ type: String) -> [Substring] {
        epoch.first { $0.dropFirst(2).hasPrefix(type) }?.split(separator: ",", omittingEmptySubsequences: false) ?? []
    }

    /// C/N0 of the satellites in view, 0 for one not tracked.
    func carrierToNoise(_ epoch: [String]) -> [Int] {
        epoch.filter { $0.hasPrefix("GPGSV") }.flatMap { line -> [Int] in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            return stride(from: 4, to: f.count - 3, by: 4).map { Int(f[$0 + 3]) ?? 0 }
        }
    }

    func hasFix(_ epoch: [String]) -> Bool { fields(epoch, "RMC")[2] == "A" && fields(epoch, "GGA")[6] != "0" }

    func seconds(_ epoch: [String]) -> Double {
        let text = fields(epoch, "RMC")[1]
        let whole = Int(text.prefix(6))!
        let secondsOfDay = whole / 10000 * 3600 + whole / 100 % 100 * 60 + whole % 100
        let fraction: Double = Double("0" + text.dropFirst(6))!
        return Double(secondsOfDay) + fraction
    }

    /// Metres from the parked position (equirectangular: tens of metres).
    func offset(_ epoch: [String]) -> Double {
        let f = fields(epoch, "RMC")
        let lat = Double(f[3].prefix(2))! + Double(f[3].dropFirst(2))! / 60
        let lon = -(Double(f[5].prefix(3))! + Double(f[5].dropFirst(3))! / 60)
        let north = (lat - Self.parked.lat) * 111_195
        let east = (lon - Self.parked.lon) * 111_195 * cos(Self.parked.lat * .pi / 180)
        return (north * north + east * east).squareRoot()
    }

    @Test func badJamAndSpoofValuesAreRefusedWithExitStatus2() throws {
        let route = try parkedRoute(seconds: 5)
        for (value, says) in [
            (["--jam", "60"], "START+DURATION"), (["--jam", "-5+10"], "0 s or later"),
            (["--spoof", "soon"], "START in seconds"),
        ] {
            let result = try runGPSFence(["simulate", route.path] + value)
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains(says), "\(value): \(result.stderr)")
            #expect(!result.stdout.hasPrefix("/dev/"), "nothing is played")
        }
        let capture = temporaryDirectory().appendingPathComponent("drive.nmea")
        try "$GPRMC,101500.00,A,4216.83600,N,08345.11400,W,0.0,0.0,030226,,,A*7C\n".write(
            to: capture, atomically: true, encoding: .utf8)
        let result = try runGPSFence(["simulate", capture.path, "--jam", "1+2"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("capture"), "\(result.stderr)")
    }

    /// Seconds since the route's first point (10:15:00) by the receiver's clock; the first
    /// epoch or two may be played before the recorder has the line.
    func elapsed(_ epoch: [String]) -> Double { seconds(epoch) - 36_900 }

    @Test func aJamLowersCarrierToNoiseOnEverySatelliteLosesThemThenTheFixAndRecovers() throws {
        let epochs = try playAndRecord(try parkedRoute(seconds: 20), ["--jam", "2+9"])
        try #require(epochs.count >= 17, "\(epochs.count) epochs")
        func mean(_ epoch: [String]) -> Double { Double(carrierToNoise(epoch).reduce(0, +)) / 8 }
        let before = try #require(epochs.last { elapsed($0) < 2 }, "an epoch before the jam")
        #expect(carrierToNoise(before).allSatisfy { $0 >= 28 } && hasFix(before))
        let sevenSeconds = try #require(epochs.first { abs(elapsed($0) - 7) < 0.01 })
        #expect(mean(sevenSeconds) < mean(before) - 6, "C/N0 falls: \(epochs.map(mean))")
        let lost = try #require(epochs.first { Int(fields($0, "GGA")[7]) ?? 8 < 8 })
        let blind = try #require(epochs.firstIndex { !hasFix($0) })
        #expect(elapsed(lost) > 2 && elapsed(lost) < elapsed(epochs[blind]), "satellites lost, then the fix")
        #expect(elapsed(epochs[blind]) <= 12, "no fix within 10 s of the onset")
        #expect(fields(epochs[blind], "GSA")[2] == "1")
        // Back after the jam's 9 s.
        let end = epochs[epochs.count - 1]
        #expect(elapsed(end) >= 19 && hasFix(end) && Int(fields(end, "GGA")[7]) == 8)
        // The error ellipse grows before the fix goes.
        func major(_ epoch: [String]) -> Double {
            Double(fields(epoch, "GST").count > 3 ? fields(epoch, "GST")[3] : "") ?? 0
        }
        #expect(major(before) > 0 && major(epochs[blind - 1]) > 1.5 * major(before), "\(epochs.map(major))")
    }

    @Test func aSpoofFlattensCarrierToNoiseStepsTheClockAndDragsTheParkedVehicleAway() throws {
        let epochs = try playAndRecord(try parkedRoute(seconds: 16), ["--spoof", "2"])
        try #require(epochs.count >= 14, "\(epochs.count) epochs")
        let before = epochs.filter { elapsed($0) < 2 }
        #expect(!before.isEmpty)
        #expect(before.allSatisfy { offset($0) < 0.1 && Set(carrierToNoise($0)).count >= 4 }, "\(before)")
        for epoch in epochs where elapsed(epoch) >= 2 {
            #expect(carrierToNoise(epoch).allSatisfy { (49...51).contains($0) }, "\(epoch)")
        }
        let gaps = zip(epochs.dropFirst(), epochs).map { seconds($0) - seconds($1) }
        #expect(gaps.filter { abs($0 - 1) > 0.01 }.map { ($0 * 100).rounded() / 100 } == [2.8], "\(gaps)")
        // Pulled off at a steady 3 m/s, with speed and course saying so.
        let last = epochs.count - 1
        let drift =
            (offset(epochs[last]) - offset(epochs[last - 6])) / (seconds(epochs[last]) - seconds(epochs[last - 6]))
        #expect(abs(drift - 3) < 0.1, "\(drift) m/s")
        #expect(offset(epochs[last]) > 20)
        let knots = Double(fields(epochs[last], "RMC")[7])!
        #expect(abs(knots * 1852 / 3600 - 3) < 0.01)
        #expect(Double(fields(epochs[last], "RMC")[8]) == 135)
    }
}
