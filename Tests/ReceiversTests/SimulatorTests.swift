import Fences
import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Testing
import Tools

extension PseudoTerminalTests {
    /// The simulated receiver: routes, sentences, pacing.
    @Suite struct SimulatorTests {
        @Test func everyEpochDecodesToTheFixItWasMadeFrom() {
            var route = straightRoute()
            route[0].altitude = 250
            route[1].altitude = 260
            route[2].altitude = 240
            let fixes = TrackPlayer.fixes(route, rate: 2, speed: 25, start: fixedStart)
            let collector = FixCollector()
            for fix in fixes { for line in EpochSentences.lines(for: fix) { collector.push(line) } }
            collector.decoder.finish { collector.fixes.append($0) }
            #expect(collector.fixes.count == fixes.count)
            #expect(collector.decoder.framer.counters.badChecksum == 0)
            for (decoded, expected) in zip(collector.fixes, fixes) {
                #expect(matches(decoded, expected))
                #expect(decoded.mode == .threeD)
                #expect(abs((decoded.altitude ?? 0) - (expected.altitude ?? -1)) <= 0.05)
            }
        }

        @Test func aWalkedRouteKeepsItsSpeedAndEndsOnTheLastVertex() {
            let route = straightRoute()
            let fixes = TrackPlayer.fixes(route, rate: 4, speed: 20, start: fixedStart)
            for (a, b) in zip(fixes, fixes.dropFirst().dropLast()) {
                let step = Geodesy.haversine(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
                // 5 m per epoch, a little less where the step cuts the corner.
                #expect(step <= 5.0001 && step > 3.5)
                #expect(b.time.millisecondsSinceEpoch - a.time.millisecondsSinceEpoch == 250)
            }
            #expect(fixes.first!.latitude == route[0].latitude && fixes.first!.longitude == route[0].longitude)
            #expect(abs(fixes.last!.latitude - route[2].latitude) < 1e-9)
            #expect(abs(fixes.last!.longitude - route[2].longitude) < 1e-9)
            #expect(abs(fixes[1].track - 90) < 0.01, "first leg heads east")
            #expect(
                abs(fixes[fixes.count - 2].track) < 0.01 || abs(fixes[fixes.count - 2].track - 360) < 0.01,
                "last leg heads north")
        }

        @Test func aGPXTrackIsReplayedOnItsOwnTimes() throws {
            let gpx = """
                <?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>
                <trkpt lat="42.2806" lon="-83.7519"><ele>250.5</ele><time>2026-02-03T10:15:02Z</time></trkpt>
                <trkpt lat='42.2807' lon='-83.7518'><time>2026-02-03T10:15:03.5Z</time></trkpt>
                <trkpt lat="42.2808" lon="-83.7517"><time>2026-02-03T10:15:04Z</time></trkpt>
                </trkseg></trk></gpx>
                """
            let path = temporaryDirectory() + "/track.gpx"
            try gpx.write(toFile: path, atomically: true, encoding: .utf8)
            guard case .track(let points) = try Route.load(path: path) else {
                Issue.record("not a track")
                return
            }
            #expect(points.count == 3)
            #expect(points[0].altitude == 250.5)
            #expect(points[1].time?.description == "2026-02-03T10:15:03.500Z")
            let fixes = TrackPlayer.fixes(points, rate: 2, speed: 99, start: fixedStart)
            #expect(
                fixes.map(\.time.description) == [
                    "2026-02-03T10:15:02.000Z", "2026-02-03T10:15:02.500Z", "2026-02-03T10:15:03.000Z",
                    "2026-02-03T10:15:03.500Z", "2026-02-03T10:15:04.000Z",
                ])
            #expect(abs(fixes[3].latitude - 42.2807) < 1e-9)
        }

        /// An old GPX with times is moved to another start and sped up; the receiver's
        /// clock still runs at its own pace (one epoch per 1/rate s), the vehicle moves faster.
        @Test func aTimedGPXIsShiftedAndScaled() throws {
            let old = parseISOTime("2019-06-01T08:00:00Z")!
            let points = (0...10).map { index in
                // 10 s per point, 0.001 degree (111 m) north each: 11.1 m/s as recorded
                RoutePoint(
                    latitude: 42.28 + Double(index) * 0.001, longitude: -83.75,
                    time: UTCTime(millisecondsSinceEpoch: old.millisecondsSinceEpoch + Int64(index) * 10_000))
            }
            var job = SimulateJob(route: .track(points))
            job.rate = 1
            job.start = fixedStart
            job.shiftsTimes = true
            job.timeScale = 10
            let epochs = job.epochs(pass: 0, now: fixedStart)
            #expect(epochs.first?.time == fixedStart, "moved to --start")
            // 100 s of route at 10 times: 10 s of receiver time, one epoch a second, both ends.
            #expect(epochs.count == 11, "\(epochs.map { $0.time?.description ?? "-" })")
            #expect(epochs.allSatisfy { $0.interval == 1 })
            let fixes = TrackPlayer.fixes(
                points, rate: 1, speed: 10, start: fixedStart,
                timing: TrackPlayer.Timing(origin: fixedStart, scale: 10))
            #expect(abs(fixes[3].latitude - (42.28 + 0.003)) < 1e-9, "3 s in: 30 s of route")
            #expect(abs(fixes[3].speed - 111.2) < 0.5, "ten times the recorded 11.1 m/s: \(fixes[3].speed)")
            // Without a new start the route keeps its own times, scaled from its first.
            job.shiftsTimes = false
            #expect(job.epochs(pass: 0, now: fixedStart).last?.time?.description == "2019-06-01T08:00:10.000Z")
            // --speed given: walked at that speed, its times ignored.
            job.ignoresTimes = true
            job.speed = 111.19
            job.shiftsTimes = true
            #expect((11...12).contains(job.epochs(pass: 0, now: fixedStart).count))
        }

        @Test func badRouteFilesAreRefusedWithWhereAndWhat() throws {
            let directory = temporaryDirectory()
            let gpx = directory + "/bad.gpx"
            try #"<gpx><trk><trkseg><trkpt lat="91" lon="0"></trkpt></trkseg></trk></gpx>"#.write(
                toFile: gpx, atomically: true, encoding: .utf8)
            #expect { try Route.load(path: gpx) } throws: {
                ($0 as? InputError)?.message == "\(gpx): point 1: lat must be a number from -90 to 90"
            }
            let json = directory + "/bad.geojson"
            try #"{"type":"Point","coordinates":[1,2]}"#.write(toFile: json, atomically: true, encoding: .utf8)
            #expect { try Route.load(path: json) } throws: {
                ($0 as? InputError)?.message.contains("no LineString") == true
            }
            #expect { try Route.load(path: directory + "/missing.gpx") } throws: {
                ($0 as? InputError)?.message.contains("missing.gpx") == true
            }
        }

        @Test func aCaptureIsCutIntoEpochsWithItsOwnTiming() throws {
            let path = temporaryDirectory() + "/capture.nmea"
            let text =
                "# a comment\r\n"
                + String(
                    decoding: SentenceWriter.sentence(
                        "GPRMC,101502.00,A,4216.83600,N,08345.11400,W,0.0,0.0,030226,,,A"), as: UTF8.self)
                + String(decoding: SentenceWriter.sentence("GPGSA,A,3,02,,,,,,,,,,,,1.6,0.9,1.3"), as: UTF8.self)
                + String(
                    decoding: SentenceWriter.sentence(
                        "GPRMC,101502.50,A,4216.83600,N,08345.11400,W,0.0,0.0,030226,,,A"), as: UTF8.self)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            var job = SimulateJob(route: try Route.load(path: path))
            job.rate = 1
            let epochs = job.epochs(pass: 0, now: fixedStart)
            #expect(epochs.map(\.lines.count) == [2, 1])
            #expect(epochs[0].interval == 0.5)
            #expect(epochs[1].interval == 1)
        }

        @Test func theWireNeverDeliversFasterThanItsBaudRate() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(4800)!)
            let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(4800)!)
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(4800)!)
            let line = SentenceWriter.sentence(
                "GPTXT,01,01,02,0123456789012345678901234567890123456789012345678901234567")
            let started = monotonicSeconds()
            for _ in 0..<4 { try wire.send(line) }
            let elapsed = monotonicSeconds() - started
            // 4 x 80 bytes at 480 bytes/s: a lower bound only (a loaded machine may be slower).
            #expect(elapsed >= Double(4 * line.count) / 480 * 0.99)
            let bytes = try readFor(port, seconds: 0.1)
            #expect(bytes == Array([line, line, line, line].joined()))
            #expect(wire.counters.clean == 4)
        }

        @Test func onARealTerminalDeviceTheWireWritesTheSentencesAsTheyAre() throws {
            // `simulate --device`: here the "device" is the slave of a pseudo-terminal, read at the master.
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
            let wire = SimulatedWire(port: .device(port), rate: BaudRate(9600)!)
            let lines = EpochSentences.lines(
                for: TrackPlayer.fixes(straightRoute(), rate: 1, speed: 10, start: fixedStart)[0])
            for line in lines { try wire.send(line) }
            var received: [UInt8] = []
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
            defer { buffer.deallocate() }
            while received.count < lines.joined().count {
                let count = terminal.read(into: buffer, timeout: 1)
                if count == 0 { break }
                received += buffer[0..<count]
            }
            #expect(received == Array(lines.joined()))
            #expect(wire.counters.clean == lines.count)
        }

        @Test func aLineTooSlowForTheRateKeepsTheClockAndDropsWhatDoesNotFit() throws {
            // 10 Hz at 9600 baud: 960 bytes/s carry 96 bytes per epoch, and an epoch is about 380
            // (RMC 75, VTG 44, GGA 70, GSA 55, 2 x GSV 69). A receiver keeps its 10 Hz clock: its
            // transmit buffer (1 kB) fills, and what does not fit is dropped and counted.
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(9600)!)
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(9600)!)
            let play = job(rate: 10, speed: 100)
            let epochs = play.epochs(pass: 0, now: fixedStart)
            let routeSeconds = epochs.reduce(0) { $0 + $1.interval }
            let allBytes = epochs.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } }
            let allLines = epochs.reduce(0) { $0 + $1.lines.count }
            #expect(Double(allBytes) / 960 > 3 * routeSeconds, "the whole epochs would stretch the route 3x or more")
            let started = monotonicSeconds()
            let counts = try play.run(wire: wire, now: { fixedStart }, shouldStop: { false })
            let elapsed = monotonicSeconds() - started
            let received = try readFor(port, seconds: 0.3)
            #expect(counts.sent + counts.dropped == allLines)
            #expect(wire.counters.clean == counts.sent)
            // What the buffer lets through: its 1024 bytes plus what the line drains over the route
            // (the last epoch's interval included), at most.
            #expect(Double(counts.sentBytes) <= 1024 + 960 * routeSeconds)
            #expect(counts.dropped > allLines / 2)
            // What arrives is exactly the sentences sent, whole, with good checksums.
            #expect(received.count == counts.sentBytes)
            let collector = FixCollector()
            collector.push(received)
            collector.decoder.finish { collector.fixes.append($0) }
            #expect(collector.decoder.framer.counters.badChecksum == 0)
            #expect(collector.decoder.framer.counters.junkBytes == 0)
            #expect(Int(collector.decoder.framer.counters.sentences) == counts.sent)
            // Halfway between keeping the clock (the route's time) and stretching (all bytes at
            // 960 bytes/s): a loose bound that a busy machine still meets.
            #expect(elapsed < (routeSeconds + Double(allBytes) / 960) / 2)
        }

        @Test func aLineFastEnoughDropsNothingEvenWhenAnEpochComesEarly() throws {
            // 10 Hz at 57600 (the default for 10 Hz): 576 bytes per 0.1 s for about 380. The route's
            // last epoch comes sooner than 0.1 s after the one before; the buffer absorbs it.
            let terminal = try PseudoTerminal.open(rate: BaudRate(57600)!)
            let port = try SerialPort.open(terminal.slavePath, rate: BaudRate(57600)!)
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(57600)!)
            let play = job(rate: 10, speed: 100)
            let epochs = play.epochs(pass: 0, now: fixedStart)
            let counts = try play.run(wire: wire, now: { fixedStart }, shouldStop: { false })
            let received = try readFor(port, seconds: 0.3)
            #expect(counts.dropped == 0)
            #expect(received == Array(epochs.flatMap { $0.lines.joined() }))
        }

        @Test func withNobodyListeningTheBytesFallOnTheFloor() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(115200)!)
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(115200)!)
            try wire.send(SentenceWriter.sentence("GPTXT,01,01,02,unheard"))
            #expect(wire.counters.unheard == 1)
            let port = try SerialPort.open(terminal.slavePath, rate: nil)
            #expect(try readFor(port, seconds: 0.1).isEmpty)
        }
    }
}

@Suite struct SimulateJobTests {
    @Test func theDefaultBaudIsTheSlowestStandardRateThatCarriesTheRate() {
        // An epoch is about 380 bytes; at most 75 % of the line is used (docs/running.md):
        // 1 Hz needs 380 B/s, more than 4800's 360 -> 9600; 5 Hz 1900 B/s, more than 19200's 1440
        // -> 38400 (2880); 10 Hz 3800 B/s, more than 38400's 2880 -> 57600 (4320).
        #expect(job(rate: 1, speed: 10).defaultBaud(now: fixedStart) == BaudRate(9600)!)
        #expect(job(rate: 5, speed: 10).defaultBaud(now: fixedStart) == BaudRate(38400)!)
        #expect(job(rate: 10, speed: 10).defaultBaud(now: fixedStart) == BaudRate(57600)!)
    }

    @Test func aLoopingTrackKeepsItsClockGoingForward() {
        var loop = job(rate: 5, speed: 40)
        loop.loop = true
        let first = loop.epochs(pass: 0, now: fixedStart)
        let second = loop.epochs(pass: 1, now: fixedStart)
        let collector = FixCollector()
        for epoch in first + second { for line in epoch.lines { collector.push(line) } }
        collector.decoder.finish { collector.fixes.append($0) }
        let times = collector.fixes.compactMap { $0.time?.millisecondsSinceEpoch }
        #expect(times.count == first.count + second.count)
        // One epoch every 0.2 s (the route's last vertex may come sooner), and one epoch from the
        // end of a pass to the start of the next.
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 > 0 && $1 - $0 <= 200 })
        #expect(times[first.count] - times[first.count - 1] == 200)
        #expect(times[first.count] - times[0] > 0)
    }
}
