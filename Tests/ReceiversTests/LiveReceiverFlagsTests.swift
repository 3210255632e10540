import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Synchronization
import Testing
import Tools
import Waiting

extension PseudoTerminalTests {
    /// The live serial path: UBX reports between the sentences on a real pseudo-terminal reach what
    /// the source puts into the engine's ring, the fixes (`EngineInput.fix`, `Fix.receiverFlags`)
    /// and the cycles without a fix (`EngineInput.silentCycle`, `EpochTime.receiverFlags`).
    @Suite struct LiveReceiverFlagsTests {
        /// One cycle the source read: whether it had a fix, and the receiver's flags on it.
        typealias Cycle = (fix: Bool, flags: ReceiverIntegrityFlags)

        /// An emulated u-blox M10, told what `configure --integrity` tells it, sends `seconds` of a
        /// jam that deepens by 2 dB-Hz a second through a real pseudo-terminal to the serial source;
        /// the cycles it read once `enough` holds for them.
        static func cyclesOfAJammedM10(seconds: Int, until enough: ([Cycle]) -> Bool) throws -> [Cycle] {
            let terminal = try PseudoTerminal.open(rate: BaudRate(38400)!)
            var configuration = Reader.Configuration(path: terminal.slavePath, rate: BaudRate(38400))
            configuration.memory = BaudMemory(directory: temporaryDirectory())
            configuration.watchesUdev = false
            let source = SerialFixSource(configuration, rollover: .captures)
            let cycles = Locked<[Cycle]>([])
            let done = Atomic<Bool>(false)
            Thread {
                source.run { input in
                    switch input {
                    case .fix(let fix, _): cycles.withLock { $0.append((true, fix.receiverFlags)) }
                    case .silentCycle(let cycle, _): cycles.withLock { $0.append((false, cycle.receiverFlags)) }
                    case .connected, .lost, .problem, .endOfInput: break
                    }
                }
                done.store(true, ordering: .releasing)
            }.start()
            while !terminal.hasReader { usleep(1000) }
            usleep(50_000)  // past the reader's tcflush

            let receiver = EmulatedReceiver(model: .ubloxM10, baud: BaudRate(38400)!)
            let set = UBXValueSet(
                layers: UBXValueSet.ram,
                values: [
                    (.interferenceMonitor, 1), (UBXIntegrityMessage.navigationStatus.valueSetKey!, 1),
                    (UBXIntegrityMessage.radioMonitor.valueSetKey!, 1),
                ])
            _ = receiver.receive(set.frame.bytes)
            var play = job(rate: 1, speed: 10)
            play.interference = Interference(jam: Interference.Jam(start: 0, duration: 100))
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(38400)!)
            for epoch in play.epochs(pass: 0, now: fixedStart).prefix(seconds) {
                for line in epoch.lines { try wire.send(line) }
                for frame in receiver.integrityFrames(epoch.condition!, timeOfWeek: 0) { try wire.send(frame) }
            }
            #expect(waitUntil(timeout: 10) { cycles.withLock { enough($0) } }, "\(cycles.withLock { $0 })")
            source.stop()
            while !done.load(ordering: .acquiring) { usleep(1000) }
            terminal.close()
            return cycles.withLock { $0 }
        }

        @Test func anEmulatedM10sJammingReportsRideOnTheLiveFixes() throws {
            // Seven seconds of a jam: C/N0 down 12 dB-Hz, the fix still held.
            let seen = try Self.cyclesOfAJammedM10(seconds: 7) { $0.filter(\.fix).count >= 6 }.filter(\.fix)
                .map(\.flags)
            #expect(seen.dropFirst().allSatisfy { $0.spoofing == .none && $0.jammingIndicator != nil }, "\(seen)")
            #expect(seen.contains { $0.jamming == .warning }, "\(seen)")
            let indicators = seen.compactMap(\.jammingIndicator)
            #expect(indicators.last! > indicators.first! + 30, "the jamming indicator rises: \(indicators)")
        }

        /// When the jam takes the fix, the M10 keeps sending its UBX-MON-RF between the sentences of
        /// the cycles without a fix, and those cycles carry its jamming state, `critical` as the jam
        /// deepens.
        @Test func anEmulatedM10sJammingReportsReachTheCyclesWithoutAFix() throws {
            // Thirty seconds: the fix goes, the reports stay.
            let cycles = try Self.cyclesOfAJammedM10(seconds: 30) { $0.filter { !$0.fix }.count >= 5 }
            let withoutFix = cycles.filter { !$0.fix }.map(\.flags)
            // The fix goes while the jamming state is still `warning`; it turns `critical` after.
            #expect(
                !withoutFix.isEmpty && withoutFix.allSatisfy { $0.jamming != .unknown && $0.jammingIndicator != nil },
                "\(withoutFix)")
            #expect(withoutFix.contains { $0.jamming == .critical }, "\(withoutFix)")
            let indicators = withoutFix.compactMap(\.jammingIndicator)
            #expect(indicators.last! > indicators.first!, "the jamming indicator rises: \(indicators)")
        }
    }
}
