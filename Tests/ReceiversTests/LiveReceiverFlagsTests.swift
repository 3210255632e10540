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
    /// The live serial path: UBX reports between the sentences on a real pseudo-terminal reach the
    /// fixes the source puts into the engine's ring (`EngineInput.fix`, `Fix.receiverFlags`).
    @Suite struct LiveReceiverFlagsTests {
        @Test func anEmulatedM10sJammingReportsRideOnTheLiveFixes() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(38400)!)
            var configuration = Reader.Configuration(path: terminal.slavePath, rate: BaudRate(38400))
            configuration.memory = BaudMemory(directory: temporaryDirectory())
            configuration.watchesUdev = false
            let source = SerialFixSource(configuration, rollover: .captures)
            let flags = Mutex<[ReceiverIntegrityFlags]>([])
            let done = Atomic<Bool>(false)
            Thread {
                source.run { input in
                    if case .fix(let fix, _) = input { flags.withLock { $0.append(fix.receiverFlags) } }
                }
                done.store(true, ordering: .releasing)
            }.start()
            while !terminal.hasReader { usleep(1000) }
            usleep(50_000)  // past the reader's tcflush

            // The receiver, told by the host what `configure --integrity` tells an M10.
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
            // Seven seconds of a jam: C/N0 down 12 dB-Hz, the fix still held.
            for epoch in play.epochs(pass: 0, now: fixedStart).prefix(7) {
                for line in epoch.lines { try wire.send(line) }
                for frame in receiver.integrityFrames(epoch.condition!, timeOfWeek: 0) { try wire.send(frame) }
            }
            #expect(waitUntil(timeout: 10) { flags.withLock { $0.count } >= 6 }, "\(flags.withLock { $0 })")
            source.stop()
            while !done.load(ordering: .acquiring) { usleep(1000) }
            terminal.close()
            let seen = flags.withLock { $0 }
            #expect(seen.dropFirst().allSatisfy { $0.spoofing == .none && $0.jammingIndicator != nil }, "\(seen)")
            #expect(seen.contains { $0.jamming == .warning }, "\(seen)")
            let indicators = seen.compactMap(\.jammingIndicator)
            #expect(indicators.last! > indicators.first! + 30, "the jamming indicator rises: \(indicators)")
        }
    }
}
