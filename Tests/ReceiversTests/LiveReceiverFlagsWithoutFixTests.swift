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
    /// The live serial path when the jam takes the fix: the emulated u-blox M10 keeps sending its
    /// UBX-MON-RF between the sentences of the cycles without a fix, and those cycles reach the
    /// engine's ring with its jamming state, `critical` as the jam deepens
    /// (`EngineInput.silentCycle`, `EpochTime.receiverFlags`).
    @Suite struct LiveReceiverFlagsWithoutFixTests {
        @Test func anEmulatedM10sJammingReportsReachTheCyclesWithoutAFix() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(38400)!)
            var configuration = Reader.Configuration(path: terminal.slavePath, rate: BaudRate(38400))
            configuration.memory = BaudMemory(directory: temporaryDirectory())
            configuration.watchesUdev = false
            let source = SerialFixSource(configuration, rollover: .captures)
            let cycles = Mutex<[(fix: Bool, flags: ReceiverIntegrityFlags)]>([])
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
            // Thirty seconds of a jam that deepens by 2 dB-Hz a second: the fix goes, the reports stay.
            for epoch in play.epochs(pass: 0, now: fixedStart).prefix(30) {
                for line in epoch.lines { try wire.send(line) }
                for frame in receiver.integrityFrames(epoch.condition!, timeOfWeek: 0) { try wire.send(frame) }
            }
            #expect(
                waitUntil(timeout: 10) { cycles.withLock { $0.filter { !$0.fix }.count } >= 5 },
                "\(cycles.withLock { $0.map(\.fix) })")
            source.stop()
            while !done.load(ordering: .acquiring) { usleep(1000) }
            terminal.close()
            let withoutFix = cycles.withLock { $0 }.filter { !$0.fix }.map(\.flags)
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
