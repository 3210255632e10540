import Fences
import LiveLoop
import NMEA
import Platform
import Receivers
import Testing
import Tools

/// `simulate --jam` and `--spoof` as the sentences show them, and the emulated u-blox's own
/// reports of both (docs/running.md, docs/hardware.md). Expected values come from the scenario's
/// description (C/N0 falling on every satellite, a 1.8 s clock step, a 3 m/s pull), read back
/// from the NMEA text.
@Suite struct InterferenceTests {
    /// One epoch's sentences as text.
    struct Epoch {
        var lines: [String]

        func fields(_ type: String) -> [Substring]? {
            lines.first { $0.dropFirst(3).hasPrefix(type) }.map {
                $0.prefix { $0 != "*" }.split(separator: ",", omittingEmptySubsequences: false)
            }
        }

        /// C/N0 of every satellite in view, nil when not tracked.
        var carrierToNoise: [Int?] {
            lines.filter { $0.dropFirst(3).hasPrefix("GSV") }.flatMap { line -> [Int?] in
                let fields = line.prefix { $0 != "*" }.split(separator: ",", omittingEmptySubsequences: false)
                return stride(from: 4, to: fields.count - 3, by: 4).map { Int(fields[$0 + 3]) }
            }
        }

        var satellitesUsed: Int? { fields("GGA").flatMap { Int($0[7]) } }
        var hasFix: Bool { fields("RMC")?[2] == "A" && fields("GGA")?[6] != "0" }
    }

    func play(_ interference: Interference, seconds: Int = 90) -> [Epoch] {
        var play = job(rate: 1, speed: 1)
        play.interference = interference
        return play.epochs(pass: 0, now: fixedStart).prefix(seconds).map {
            Epoch(lines: $0.lines.map { String(decoding: $0.dropLast(2), as: UTF8.self) })
        }
    }

    @Test func anOpenSkyHasEightSatellitesWhoseCarrierToNoiseWandersALittle() {
        let epochs = play(Interference())
        #expect(epochs.allSatisfy { $0.carrierToNoise.count == 8 && $0.carrierToNoise.allSatisfy { $0 != nil } })
        #expect(epochs.allSatisfy { $0.satellitesUsed == 8 && $0.hasFix })
        let first = epochs.map { $0.carrierToNoise[0]! }
        #expect(Set(first).count >= 2, "C/N0 varies over time: \(first)")
        #expect(first.allSatisfy { (40...48).contains($0) }, "a little, about its own level: \(first)")
        // No interference rehearsed: no GST, and the sentences of a plain simulator.
        #expect(epochs.allSatisfy { $0.fields("GST") == nil })
    }

    @Test func aJamDrownsEverySatelliteThenTheFixAndRecoversAfterItsDuration() throws {
        let jam = try Interference.parseJam("20+30").get()
        let epochs = play(Interference(jam: jam))
        func meanCN0(_ epoch: Epoch) -> Double {
            let values = epoch.carrierToNoise.map { Double($0 ?? 0) }
            return values.reduce(0, +) / Double(values.count)
        }
        let before = meanCN0(epochs[19])
        // C/N0 falls on every satellite, second by second.
        for second in 21...25 {
            #expect(meanCN0(epochs[second]) < meanCN0(epochs[second - 1]), "second \(second)")
            for (now, earlier) in zip(epochs[second].carrierToNoise, epochs[second - 2].carrierToNoise) {
                if let now, let earlier { #expect(now < earlier, "every satellite falls, second \(second)") }
            }
        }
        #expect(meanCN0(epochs[24]) < before - 5)
        // Satellites are lost before the fix is.
        let lostSome = try #require(epochs.firstIndex { ($0.satellitesUsed ?? 8) < 8 })
        let noFix = try #require(epochs.firstIndex { !$0.hasFix })
        #expect(lostSome > 20 && lostSome < noFix, "\(lostSome) then \(noFix)")
        #expect(noFix <= 30, "no fix within 10 s of the onset")
        #expect(epochs[noFix].fields("GSA")?[2] == "1")
        #expect(epochs[noFix].fields("GGA")?[2] == "", "no position without a fix")
        // A rehearsal carries the error ellipse, wider as the jam deepens.
        let ellipse = { (epoch: Epoch) in Double(epoch.fields("GST")?[3] ?? "") ?? -1 }
        #expect(ellipse(epochs[19]) > 0 && ellipse(epochs[25]) > ellipse(epochs[19]) * 1.5)
        // Blind through the jam, back once it ends.
        #expect(epochs[35...49].allSatisfy { !$0.hasFix })
        let back = try #require(epochs[50...].firstIndex { $0.hasFix })
        #expect(back <= 60, "fix back within 10 s of the jam's end: \(back)")
        #expect(epochs[65...].allSatisfy { $0.hasFix && $0.satellitesUsed == 8 })
    }

    @Test func aSpoofFlattensCarrierToNoiseStepsTheClockAndPullsThePositionAtThreeMetresASecond() throws {
        let start = try Interference.parseSpoof("20").get()
        let interference = Interference(spoofStart: start)
        let epochs = play(interference)
        let clean = play(Interference())
        let withoutEllipse = { (epoch: Epoch) in epoch.lines.filter { !$0.dropFirst(3).hasPrefix("GST") } }
        #expect(epochs[..<20].map(withoutEllipse) == clean[..<20].map(\.lines), "nothing changes before the takeover")
        for epoch in epochs[20...] {
            #expect(epoch.carrierToNoise.allSatisfy { ($0 ?? 0) >= 49 && ($0 ?? 0) <= 51 }, "\(epoch.lines)")
            #expect(epoch.satellitesUsed == 8 && epoch.hasFix)
        }
        // The receiver's clock: RMC and GGA time, seconds of the day.
        func seconds(_ epoch: Epoch, _ type: String) -> Double {
            let text = String(epoch.fields(type)![1])
            let whole = Int(text.prefix(6))!
            let secondsOfDay = whole / 10000 * 3600 + whole / 100 % 100 * 60 + whole % 100
            let fraction: Double = Double("0" + text.dropFirst(6))!
            return Double(secondsOfDay) + fraction
        }
        let steps = zip(epochs.dropFirst(), epochs).map { seconds($0, "RMC") - seconds($1, "RMC") }
        let jumps = steps.enumerated().filter { abs($0.element - 1) > 0.01 }
        #expect(jumps.count == 1 && abs(jumps[0].element - 2.8) < 0.001, "one 1.8 s step: \(jumps)")
        #expect(jumps[0].offset + 1 >= 20 && jumps[0].offset + 1 <= 25)
        #expect(epochs.allSatisfy { seconds($0, "GGA") == seconds($0, "RMC") })
        // The position drifts off the route at a steady 3 m/s, with speed and course to match.
        func position(_ epoch: Epoch) -> (Double, Double) {
            let f = epoch.fields("RMC")!
            func degrees(_ text: Substring, _ digits: Int) -> Double {
                Double(text.prefix(digits))! + Double(text.dropFirst(digits))! / 60
            }
            return (degrees(f[3], 2) * (f[4] == "S" ? -1 : 1), degrees(f[5], 3) * (f[6] == "W" ? -1 : 1))
        }
        func offRoute(_ second: Int) -> Double {
            let (a, b) = (position(epochs[second]), position(clean[second]))
            return Geodesy.haversine(lat1: a.0, lon1: a.1, lat2: b.0, lon2: b.1)
        }
        #expect(offRoute(23) < 0.05)
        let drift = (offRoute(60) - offRoute(30)) / 30
        #expect(abs(drift - 3) < 0.05, "pulled at \(drift) m/s")
        let knots = Double(epochs[40].fields("RMC")![7])!
        let course = Double(epochs[40].fields("RMC")![8])!
        // The route runs east at 1 m/s; the pull is 3 m/s south-east: their sum.
        let east = 1 + 3 * (0.5 as Double).squareRoot()
        let south = 3 * (0.5 as Double).squareRoot()
        #expect(abs(knots * 1852 / 3600 - (east * east + south * south).squareRoot()) < 0.01)
        #expect(abs(course - (180 - atan2(east, south) * 180 / .pi)) < 0.1, "course \(course)")
    }

    @Test func badJamAndSpoofValuesAreRefusedWithWhatIsWrong() {
        for (text, problem) in [
            ("60", .jamNotInForm(given: "60")), ("-5+10", .jamStartBeforeRoute(given: "-5+10")),
            ("10+0", .jamWithoutDuration(given: "10+0")), ("a+b", .jamNotInForm(given: "a+b")),
            ("10+inf", .jamWithoutDuration(given: "10+inf")),
        ] as [(String, InterferenceProblem)] {
            #expect(Interference.parseJam(text) == .failure(problem), "--jam \(text)")
        }
        #expect(Interference.parseSpoof("-1") == .failure(.spoofStartBeforeRoute(given: "-1")))
    }

    // MARK: the emulated u-blox's own reports

    func acknowledged(_ receiver: EmulatedReceiver, _ frame: UBXFrame) -> Bool? {
        var parser = UBXFrameParser()
        return parser.push(receiver.receive(frame.bytes).joined()).compactMap(UBXAcknowledgement.init).first?.accepted
    }

    /// What the receiver's reports say, read one after the other.
    func reported(_ receiver: EmulatedReceiver, _ condition: SignalCondition) -> ReceiverIntegrityFlags {
        var parser = UBXFrameParser()
        var flags = ReceiverIntegrityFlags.unknown
        for frame in parser.push(receiver.integrityFrames(condition, timeOfWeek: 0).joined()) {
            if let message = UBXIntegrityMessage.named(messageClass: frame.messageClass, id: frame.id) {
                let taken = flags.take(message, payload: frame.payload)
                #expect(taken)
            }
        }
        return flags
    }

    /// What a decoder makes of an epoch's sentences followed by the receiver's reports: the flags
    /// on its fix.
    func decodedFlags(_ receiver: EmulatedReceiver, _ condition: SignalCondition) -> ReceiverIntegrityFlags? {
        let fix = TrackPlayer.fixes(straightRoute(), rate: 1, speed: 10, start: fixedStart)[0]
        let collector = FixCollector()
        for line in EpochSentences.lines(for: fix, condition: condition) { collector.push(line) }
        for frame in receiver.integrityFrames(condition, timeOfWeek: 1000) { collector.push(frame) }
        collector.decoder.finish { collector.fixes.append($0) }
        return collector.fixes.last?.receiverFlags
    }

    @Test func anM8SendsNavStatusAndMonHWOnceToldAndSaysJammingOnlyWithItsMonitorOn() throws {
        let receiver = EmulatedReceiver(model: .ubloxM8)
        var jammed = SignalCondition(elapsed: 30)
        jammed.jammingLoss = 10
        #expect(receiver.integrityFrames(jammed, timeOfWeek: 0).isEmpty, "nothing before it is told")
        #expect(acknowledged(receiver, UBXMessageRate(messageClass: 0x01, id: 0x03, rate: 1).frame) == true)
        #expect(acknowledged(receiver, UBXMessageRate(messageClass: 0x0A, id: 0x09, rate: 1).frame) == true)
        // Generation 8 has no MON-RF.
        #expect(acknowledged(receiver, UBXMessageRate(messageClass: 0x0A, id: 0x38, rate: 1).frame) == false)
        let withoutMonitor = try #require(decodedFlags(receiver, jammed))
        #expect(withoutMonitor.jamming == .unknown)
        #expect(withoutMonitor.spoofing == .none)
        #expect((withoutMonitor.jammingIndicator ?? 0) > 40)
        #expect(acknowledged(receiver, UBXInterferenceMonitor(enabled: true).frame) == true)
        #expect(decodedFlags(receiver, jammed)?.jamming == .warning)
        // Critical is the receiver's word for a jam that took its fix: no fix carries it.
        jammed.jammingLoss = 30
        #expect(decodedFlags(receiver, jammed) == nil)
        #expect(reported(receiver, jammed).jamming == .critical)
        #expect(reported(receiver, jammed).jammingIndicator == 188)
        let clear = try #require(decodedFlags(receiver, SignalCondition(elapsed: 30)))
        #expect(clear.jamming == .none && (clear.jammingIndicator ?? 255) < 20)
    }

    @Test func anM10SendsNavStatusMonRFAndSecSigOnceSetAndReportsASpoofer() throws {
        let receiver = EmulatedReceiver(model: .ubloxM10)
        let set = UBXValueSet(
            layers: UBXValueSet.ram,
            values: [
                (.uart1UBXOutput, 1), (.interferenceMonitor, 1),
                (UBXIntegrityMessage.navigationStatus.valueSetKey!, 1),
                (UBXIntegrityMessage.radioMonitor.valueSetKey!, 1),
                (UBXIntegrityMessage.signalSecurity.valueSetKey!, 1),
            ])
        #expect(acknowledged(receiver, set.frame) == true)
        var parser = UBXFrameParser()
        let frames = parser.push(receiver.integrityFrames(SignalCondition(elapsed: 0), timeOfWeek: 0).joined())
        #expect(frames.map { "\($0.messageClass),\($0.id)" } == ["1,3", "10,56", "39,9"])
        var spoofed = SignalCondition(elapsed: 30)
        spoofed.spoofedCN0 = 50
        spoofed.spoofingFlagged = true
        let flags = try #require(decodedFlags(receiver, spoofed))
        #expect(flags.spoofing == .indicated)
        #expect(flags.jamming == .none)
    }
}
