import Foundation
import NMEA
import SkyScenarios
import Testing

@testable import Events

/// The integrity monitor on written NMEA decoded as a replay decodes it (the sky gathered beside
/// each fix), and on the shared real logs, where nothing was jammed or spoofed.
@Suite struct IntegrityMonitorTests {
    /// One judgement change: the state, its reasons and the second (receiver's clock) it came at.
    struct Change: CustomStringConvertible {
        var state: IntegrityState
        var reasons: IntegrityReasons
        var second: Double
        var description: String { "\(state.rawValue)@\(second) [\(reasons.names)]" }
    }

    /// Decodes `text` cycle by cycle through a monitor: every change.
    static func judge(
        _ text: String, flags: (Double) -> ReceiverIntegrityFlags = { _ in .unknown }
    ) -> [Change] {
        judge(bytes: Array(text.utf8), flags: flags)
    }

    static func judge(
        bytes: [UInt8], flags: (Double) -> ReceiverIntegrityFlags = { _ in .unknown },
        skipsCommentLines: Bool = false
    ) -> [Change] {
        var monitor = IntegrityMonitor()
        var changes: [Change] = []
        let decoder = Decoder(skipsCommentLines: skipsCommentLines)
        decoder.tracksSky = true
        func observe(_ time: UTCTime?, _ fix: Fix?, _ sky: EpochSky) {
            guard let time else { return }
            let second = Double(time.millisecondsSinceEpoch - WrittenSky.start) / 1000
            if let change = monitor.observe(IntegrityCycle(time: time, fix: fix, sky: sky, flags: flags(second))) {
                changes.append(Change(state: change.state, reasons: change.reasons, second: second))
            }
        }
        bytes.withUnsafeBytes { buffer in
            decoder.push(
                buffer, onFix: { observe($0.time, $0, decoder.takeSky(at: $0.timeOfDay)) },
                onNoFix: { observe($0.time, nil, decoder.takeSky(at: $0.timeOfDay)) })
        }
        decoder.finish(
            onFix: { observe($0.time, $0, decoder.takeSky(at: $0.timeOfDay)) },
            onNoFix: { observe($0.time, nil, decoder.takeSky(at: $0.timeOfDay)) })
        return changes
    }

    @Test func aQuietSkyStaysOK() {
        var noise = WrittenSky.Noise(seed: 9)
        let changes = Self.judge(WrittenSky.nmea(WrittenSky.atRest(0..<600, noise: &noise)))
        #expect(changes.isEmpty, "\(changes)")
    }

    @Test func aJammerIsToldWithinTenSecondsOfItsOnset() throws {
        let changes = Self.judge(WrittenSky.nmea(WrittenSky.jammer(onset: 60, seconds: 120)))
        let jammed = try #require(changes.first { $0.state == .jammed }, "\(changes)")
        #expect(jammed.second - 60 <= 10, "\(changes)")
        #expect(jammed.reasons.contains(.cn0Drop), "\(changes)")
        #expect(!changes.contains { $0.state == .spoofed }, "\(changes)")
        #expect(changes.last?.state == .jammed, "the jam lasts to the end: \(changes)")
    }

    @Test func theJamEndsWhenTheSignalsComeBack() throws {
        var cycles = WrittenSky.jammer(onset: 60, seconds: 90)
        var noise = WrittenSky.Noise(seed: 4)
        cycles += WrittenSky.atRest(90..<180, noise: &noise)
        let changes = Self.judge(WrittenSky.nmea(cycles))
        #expect(changes.contains { $0.state == .jammed }, "\(changes)")
        let last = try #require(changes.last)
        #expect(last.state == .ok && last.second < 130, "\(changes)")
    }

    @Test func aSpoofersTakeoverIsToldWithinTenSeconds() throws {
        let changes = Self.judge(WrittenSky.nmea(WrittenSky.spoofer(takeover: 60, seconds: 120)))
        let spoofed = try #require(changes.first { $0.state == .spoofed }, "\(changes)")
        #expect(spoofed.second - 60 <= 10, "\(changes)")
        #expect(spoofed.reasons.contains(.uniformCN0) && spoofed.reasons.contains(.clockJump), "\(changes)")
        #expect(!changes.contains { $0.state == .jammed }, "\(changes)")
        #expect(changes.last?.state == .spoofed, "\(changes)")
    }

    @Test func urbanDrivingIsNeverJammedNorSpoofed() {
        let changes = Self.judge(WrittenSky.nmea(WrittenSky.urbanDrive(seconds: 3600)))
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
        #expect(changes.isEmpty, "satellites blocked one at a time are no evidence: \(changes)")
    }

    /// One cycle of `change` in ten minutes at rest: `degraded` with `reason`, then `ok` again.
    func degradedBy(_ reason: IntegrityReason, at second: Int = 100, _ change: (inout WrittenSky.Cycle) -> Void)
        throws
    {
        var noise = WrittenSky.Noise(seed: 5)
        var cycles = WrittenSky.atRest(0..<300, noise: &noise)
        change(&cycles[second])
        let changes = Self.judge(WrittenSky.nmea(cycles))
        let first = try #require(changes.first, "no change for \(reason)")
        #expect(first.state == .degraded && first.reasons.contains(reason), "\(changes)")
        #expect(first.second == Double(second), "\(changes)")
        #expect(changes.last?.state == .ok, "\(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    @Test func aPositionStepIsPositionJump() throws {
        try degradedBy(.positionJump) { $0.east = 800 }
    }

    @Test func anAltitudeStepIsAltitudeJump() throws {
        try degradedBy(.altitudeJump) { $0.altitude = 2500 }
    }

    @Test func aFaultyMeasurementIsRAIMFault() throws {
        try degradedBy(.raimFault) { $0.raimFailed = 7 }
    }

    @Test func poorGeometryIsHighDOP() throws {
        try degradedBy(.highDOP) { $0.pdop = 18 }
    }

    @Test func aLargeEllipseIsLargeError() throws {
        try degradedBy(.largeError) { $0.ellipse = 240 }
    }

    @Test func aClockStepAloneIsClockJump() throws {
        var noise = WrittenSky.Noise(seed: 6)
        var cycles = WrittenSky.atRest(0..<300, noise: &noise)
        for index in 100..<cycles.count { cycles[index].time += 1.8 }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        let first = try #require(changes.first)
        #expect(first.state == .degraded && first.reasons.contains(.clockJump), "\(changes)")
        #expect(changes.last?.state == .ok, "\(changes)")
    }

    @Test func flatSignalsAloneAreUniformCN0() throws {
        var noise = WrittenSky.Noise(seed: 7)
        var cycles = WrittenSky.atRest(0..<300, noise: &noise)
        for index in 100..<120 {
            for satellite in cycles[index].satellites.indices { cycles[index].satellites[satellite].cn0 = 50 }
        }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        let first = try #require(changes.first)
        #expect(first.state == .degraded && first.reasons == IntegrityReasons([.uniformCN0]), "\(changes)")
        #expect(changes.last?.state == .ok, "\(changes)")
    }

    /// Driving east at 12 m/s from `stopsAt` on (nil: never stopping), with the whole sky gone for
    /// `gone` seconds.
    static func skyGone(_ gone: Range<Int>, drivingUntil stopsAt: Int?) -> [WrittenSky.Cycle] {
        var noise = WrittenSky.Noise(seed: 8)
        var cycles = WrittenSky.atRest(0..<300, noise: &noise)
        for index in cycles.indices where index < stopsAt ?? cycles.count {
            cycles[index].speed = 12
            cycles[index].course = 90
            cycles[index].east = 12 * Double(index)
        }
        if let stopsAt {
            for index in stopsAt..<cycles.count { cycles[index].east += 12 * Double(stopsAt) }
        }
        for index in gone {
            for satellite in cycles[index].satellites.indices { cycles[index].satellites[satellite].cn0 = nil }
            cycles[index].hasFix = false
        }
        return cycles
    }

    @Test func aTunnelLosesSatellitesWithoutAJam() throws {
        let changes = Self.judge(WrittenSky.nmea(Self.skyGone(100..<130, drivingUntil: nil)))
        let first = try #require(changes.first)
        #expect(first.state == .degraded && first.reasons.contains(.satellitesLost), "\(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    /// Parked for a minute and a half under an open sky, every satellite gone in one second: no
    /// tunnel comes to a vehicle that stands still. A jammer switched on beside it (or its antenna
    /// cut off) is told at once, and the state ends when the sky comes back.
    @Test func aWholeSkyGoneAtOnceAtRestIsAJam() throws {
        let changes = Self.judge(WrittenSky.nmea(Self.skyGone(150..<200, drivingUntil: 60)))
        let jammed = try #require(changes.first { $0.state == .jammed }, "\(changes)")
        #expect(jammed.second == 150 && jammed.reasons.contains(.satellitesLost), "\(changes)")
        #expect(!changes.contains { $0.state == .jammed && $0.second > 150 }, "\(changes)")
        #expect(changes.last?.state == .ok && changes.last!.second > 200, "\(changes)")
    }

    /// A jammer switched on beside a parked vehicle may leave the strongest few satellites a
    /// second longer: 12 satellites, then the 3 strongest, then none.
    @Test func aSkyGoneWithinTwoSecondsAtRestIsAJam() throws {
        var cycles = Self.skyGone(151..<200, drivingUntil: 60)
        for satellite in 0..<9 { cycles[150].satellites[satellite].cn0 = nil }
        cycles[150].hasFix = false
        let changes = Self.judge(WrittenSky.nmea(cycles))
        let jammed = try #require(changes.first { $0.state == .jammed }, "\(changes)")
        #expect(jammed.second == 151 && jammed.reasons.contains(.satellitesLost), "\(changes)")
    }

    /// Stopped for only 15 s when the sky goes (a vehicle that just pulled into a garage whose door
    /// closed): too short a rest to tell a jammer from the place it drove into.
    @Test func aSkyGoneSoonAfterStoppingIsNoJam() throws {
        let changes = Self.judge(WrittenSky.nmea(Self.skyGone(135..<180, drivingUntil: 120)))
        #expect(changes.contains { $0.reasons.contains(.satellitesLost) }, "\(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    /// At rest, the satellites going one a second (a sky that closes over, not a noise floor that
    /// rose): no jam.
    @Test func aSkyGoingOneSatelliteASecondAtRestIsNoJam() throws {
        var cycles = Self.skyGone(0..<0, drivingUntil: 30)
        for index in 150..<cycles.count {
            for satellite in cycles[index].satellites.indices where satellite <= index - 150 {
                cycles[index].satellites[satellite].cn0 = nil
            }
            cycles[index].hasFix = cycles[index].satellites.filter { $0.cn0 != nil }.count >= 4
        }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        #expect(changes.contains { $0.reasons.contains(.satellitesLost) }, "\(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    /// An underpass driven at 12 m/s: every satellite lost for three seconds, then half of them back at once,
    /// weakened by 5 to 16 dB-Hz as from the edge of a bridge (the falls of a jam, measured against
    /// the sky before the loss). The loss came first: no jammer did that.
    @Test func aSkyComingBackWeakenedAfterALossIsNoJam() throws {
        var noise = WrittenSky.Noise(seed: 13)
        var cycles = WrittenSky.atRest(0..<200, noise: &noise)
        for index in 80..<100 { cycles[index].satellites = WrittenSky.openSky() }
        for index in 100..<103 {
            for satellite in cycles[index].satellites.indices { cycles[index].satellites[satellite].cn0 = nil }
            cycles[index].hasFix = false
        }
        cycles[103].satellites = WrittenSky.openSky()
        for (satellite, fall) in zip(0..<12, [nil, nil, nil, nil, nil, nil, 5, 6, 7, 8, 10, 16] as [Int?]) {
            let cn0 = cycles[103].satellites[satellite].cn0!
            cycles[103].satellites[satellite].cn0 = fall.map { cn0 - $0 }
        }
        for index in cycles.indices {
            cycles[index].speed = 12
            cycles[index].course = 90
            cycles[index].east = 12 * Double(index)
        }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        #expect(changes.first?.state == .degraded, "\(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    /// A jammer switched on at full strength nearby: every satellite loses 22 dB-Hz at once, so
    /// the weaker two thirds are lost in the first second and the four strongest are kept, all
    /// fallen by the same; then 2 dB-Hz a second more. `jammed` within 10 s.
    @Test func aJammerSwitchedOnAtOnceIsTold() throws {
        var noise = WrittenSky.Noise(seed: 14)
        var cycles = WrittenSky.atRest(0..<60, noise: &noise)
        for second in 60..<120 {
            var satellites = WrittenSky.openSky()
            for index in satellites.indices {
                let cn0 = satellites[index].cn0! + noise.next(-1...1) - 22 - 2 * (second - 60)
                satellites[index].cn0 = cn0 >= 20 ? cn0 : nil
            }
            var cycle = WrittenSky.Cycle(time: Double(second), east: 0, satellites: satellites)
            cycle.hasFix = satellites.filter { $0.cn0 != nil }.count >= 4
            cycles.append(cycle)
        }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        let jammed = try #require(changes.first { $0.state == .jammed }, "\(changes)")
        #expect(jammed.second >= 60 && jammed.second - 60 <= 10, "\(changes)")
        #expect(jammed.reasons.contains(.cn0Drop) && jammed.reasons.contains(.satellitesLost), "\(changes)")
    }

    /// A jammer approaching: every satellite loses 1 dB-Hz a second, the strongest too. The first
    /// satellite goes after 12 s and half of them after about 20 s, but the whole sky's fall, a
    /// little further each second, tells it first: `jammed` within 10 s, before the loss.
    @Test func aSlowJammerIsToldBeforeItTakesTheSatellites() throws {
        let changes = Self.judge(WrittenSky.nmea(WrittenSky.jammer(onset: 60, seconds: 120, fall: 1)))
        let jammed = try #require(changes.first { $0.state == .jammed }, "\(changes)")
        #expect(jammed.second >= 60 && jammed.second - 60 <= 10, "\(changes)")
        #expect(jammed.reasons.contains(.cn0Drop) && !jammed.reasons.contains(.satellitesLost), "\(changes)")
        #expect(changes.last?.state == .jammed, "the jam lasts to the end: \(changes)")
    }

    /// A street lowering all but the two highest satellites by 1 dB-Hz a second for 10 s: the
    /// sky's median falls steadily, but the strongest stay where they were, which no jammer
    /// allows.
    @Test func aStreetLoweringAllButTheHighestIsNoJam() {
        var noise = WrittenSky.Noise(seed: 15)
        var cycles = WrittenSky.atRest(0..<200, noise: &noise)
        for second in 100..<110 {
            for index in 0..<10 { cycles[second].satellites[index].cn0! -= second - 99 }
        }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    /// Fifteen seconds of an urban day (scripts/integrity_captures.py urban, seed 5, from 06:51)
    /// written out: a deep street takes or lowers the low satellites for five seconds, the mouth
    /// of a tunnel weakens two high ones by 8 dB-Hz for a second, and the next second every
    /// satellite is gone for a minute. Against the sky of ten seconds before, the middle half of
    /// the satellites kept fell alike, as a jammer's would; but the highest kept its C/N0 and one
    /// rose: no noise floor rose, and no jam is said.
    @Test func aDeepStreetThenATunnelsMouthIsNoJam() {
        let satellites: [(prn: Int, elevation: Int, azimuth: Int)] = [
            (16, 75, 227), (29, 53, 224), (18, 51, 204), (23, 47, 205), (2, 45, 56), (1, 35, 20), (3, 33, 264),
            (8, 33, 272), (9, 30, 231), (15, 30, 49), (14, 25, 311), (12, 16, 83),
        ]
        let street: [[Int?]] = [
            [47, 39, 38, 37, 36, 30, 35, 35, 34, 37, 33, 32], [45, 39, 35, 40, 39, 29, 32, 34, 39, 38, 34, 31],
            [49, 39, 42, 37, 34, 33, 35, 38, 36, 38, 35, 28], [48, 37, 37, 38, 36, 32, 37, 35, 37, 35, 35, 31],
            [45, 36, 41, 38, 38, 31, 34, 34, 37, 38, 37, 32], [47, 39, 39, 38, 38, 29, 34, 34, 36, 38, 34, 35],
            [47, 37, 41, 40, 37, 32, 31, 38, 34, 34, 35, 32], [44, 41, 41, 39, 38, 26, 26, nil, 31, 28, nil, nil],
            [45, 38, 41, 40, 37, 27, 26, 22, 31, 28, nil, nil], [45, 39, 40, 41, 37, 25, 26, nil, 32, 25, nil, nil],
            [45, 41, 39, 40, 39, 26, 26, nil, 28, 32, nil, nil], [45, 40, 40, 40, 37, 23, 25, nil, 31, 29, nil, 25],
            [44, 32, 38, 32, 35, nil, 25, nil, 30, 27, nil, nil],
            [45, nil, nil, nil, nil, nil, nil, nil, 29, nil, nil, nil],
        ]
        let open: [Int] = [44, 40, 37, 38, 37, 31, 38, 39, 36, 36, 28, 33]
        var noise = WrittenSky.Noise(seed: 16)
        func cycle(_ second: Int, _ cn0: [Int?]) -> WrittenSky.Cycle {
            let sky = zip(satellites, cn0).map {
                WrittenSky.Satellite(prn: $0.prn, elevation: $0.elevation, azimuth: $0.azimuth, cn0: $1)
            }
            var cycle = WrittenSky.Cycle(time: Double(second), east: 10 * Double(second), satellites: sky)
            cycle.hasFix = cn0.compactMap { $0 }.count >= 4
            return cycle
        }
        var cycles = (0..<100).map { second in cycle(second, open.map { $0 + noise.next(-2...2) }) }
        cycles += street.enumerated().map { cycle(100 + $0.offset, $0.element) }
        cycles += (114..<174).map { cycle($0, Array(repeating: nil, count: 12)) }
        cycles += (174..<300).map { second in cycle(second, open.map { $0 + noise.next(-2...2) }) }
        let changes = Self.judge(WrittenSky.nmea(cycles))
        #expect(changes.contains { $0.reasons.contains(.satellitesLost) }, "the tunnel is seen: \(changes)")
        #expect(!changes.contains { $0.state.isUnreliable }, "\(changes)")
    }

    @Test func theReceiversOwnWordDecides() throws {
        var noise = WrittenSky.Noise(seed: 10)
        let text = WrittenSky.nmea(WrittenSky.atRest(0..<300, noise: &noise))
        let jam = Self.judge(text) { second in
            second >= 100 && second < 150
                ? ReceiverIntegrityFlags(spoofing: .none, jamming: .critical, jammingIndicator: 200) : .unknown
        }
        #expect(jam.first?.state == .jammed && jam.first?.second == 100, "\(jam)")
        #expect(jam.first?.reasons == IntegrityReasons([.receiverFlag]), "\(jam)")
        #expect(jam.last?.state == .ok, "\(jam)")
        let spoof = Self.judge(text) { second in
            second >= 100 && second < 150
                ? ReceiverIntegrityFlags(spoofing: .affirmed, jamming: .none, jammingIndicator: nil) : .unknown
        }
        #expect(spoof.first?.state == .spoofed && spoof.first?.second == 100, "\(spoof)")
        let warning = Self.judge(text) { second in
            second >= 100 && second < 150
                ? ReceiverIntegrityFlags(spoofing: .indicated, jamming: .warning, jammingIndicator: 90) : .unknown
        }
        #expect(warning.first?.state == .degraded, "\(warning)")
        #expect(!warning.contains { $0.state.isUnreliable }, "\(warning)")
    }

    static let capturesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

    @Test func theSharedRealLogsAreNeverJammedNorSpoofed() throws {
        let logs = try FileManager.default.contentsOfDirectory(atPath: Self.capturesFolder.path)
            .filter { $0.hasSuffix(".log") }.sorted()
        #expect(logs.count == 70, "the gpsd capture folder should hold 70 logs")
        var degraded = 0
        for log in logs {
            let data = try Data(contentsOf: Self.capturesFolder.appendingPathComponent(log))
            let changes = Self.judge(bytes: Array(data), skipsCommentLines: true)
            #expect(!changes.contains { $0.state.isUnreliable }, "\(log): \(changes)")
            if changes.contains(where: { $0.state == .degraded }) { degraded += 1 }
        }
        print("integrity on \(logs.count) real logs: \(degraded) with a degraded stretch, none jammed or spoofed")
    }
}

extension IntegrityMonitorTests {
    /// Live, the receiver's clock is held against the monotonic one: a cycle that arrives late
    /// (the reader or the machine was slow) is no step; the receiver's time running 1.8 s ahead is.
    @Test func liveTheClockIsHeldAgainstTheMonotonicClock() {
        var monitor = IntegrityMonitor()
        var said: [IntegrityState] = []
        func cycle(_ second: Double, arrived: Double) {
            let time = UTCTime(millisecondsSinceEpoch: WrittenSky.start + Int64(second * 1000))
            if let change = monitor.observe(
                IntegrityCycle(time: time, fix: nil, sky: Self.listedSky, monotonic: 5000 + arrived))
            {
                said.append(change.state)
            }
        }
        for second in 0..<30 { cycle(Double(second), arrived: Double(second) + 0.2) }
        // Late by 1.5 s, then on time again: no step.
        cycle(30, arrived: 31.7)
        for second in 31..<60 { cycle(Double(second), arrived: Double(second) + 0.2) }
        #expect(said.isEmpty, "\(said)")
        // The receiver's time jumps 1.8 s ahead of the monotonic clock's.
        for second in 60..<62 { cycle(Double(second) + 1.8, arrived: Double(second) + 0.2) }
        #expect(said == [.degraded], "\(said)")
        #expect(monitor.reasons.contains(.clockJump))
    }

    /// A listed sky of twelve satellites at an open sky's strengths.
    static var listedSky: EpochSky {
        var sky = EpochSky()
        for (index, satellite) in WrittenSky.openSky().enumerated() {
            sky.append(
                EpochSky.Signal(
                    talker: 0x5047, signalID: 0, prn: UInt16(satellite.prn),
                    cn0: UInt8(satellite.cn0! + index % 3)))
        }
        sky.listed = true
        return sky
    }

    /// The DOPs of a GSA sent after a cycle without a fix (99.99) are not the next fix's.
    @Test func theDOPOfACycleWithoutAFixIsNotTheNextFixs() {
        var noise = WrittenSky.Noise(seed: 13)
        var cycles = WrittenSky.atRest(0..<120, noise: &noise)
        for index in 50..<60 {
            cycles[index].hasFix = false
        }
        var text = ""
        // GSA after the cycle, as many receivers send it.
        for line in WrittenSky.nmea(cycles).split(separator: "\r\n") where !line.contains("GSA") {
            text += line + "\r\n"
            if line.contains("RMC") {
                let fix = line.contains(",A,")
                text +=
                    fix
                    ? "$GPGSA,A,3,03,05,07,09,11,13,,,,,,,1.8,0.9,1.5*3C\r\n"
                    : "$GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99*30\r\n"
            }
        }
        let changes = Self.judge(text)
        #expect(!changes.contains { $0.reasons.contains(.highDOP) }, "\(changes)")
    }
}
