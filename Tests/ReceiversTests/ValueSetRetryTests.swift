import Foundation
import Jobs
import LiveLoop
import Platform
import Receivers
import Testing
import Tools

/// `configure` against a scripted generation-10 receiver on a real pseudo-terminal: a value set
/// with one key it does not know is refused whole, and configure then tries the keys one by one.
@Suite struct ValueSetRetryTests {
    /// A protocol-34 receiver that knows every key but `unknown`: it NAKs a VALSET holding it, and
    /// ACKs every other one. Records the key lists of the value sets it received.
    final class ScriptedReceiver: @unchecked Sendable {
        let terminal: PseudoTerminal
        let unknown: UInt32
        private let lock = NSLock()
        private var stopped = false
        private var _received: [[UInt32]] = []
        var received: [[UInt32]] { lock.withLock { _received } }

        init(unknown: UInt32) throws {
            terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            self.unknown = unknown
            let thread = Thread { [self] in serve() }
            thread.start()
        }

        func stop() { lock.withLock { stopped = true } }

        private func serve() {
            var parser = UBXFrameParser()
            while !lock.withLock({ stopped }) {
                for frame in parser.push(terminal.readIncoming()) { answer(frame) }
                usleep(2_000)
            }
        }

        private func answer(_ frame: UBXFrame) {
            var reply: UBXFrame?
            if frame.messageClass == 0x0A, frame.id == 0x04 {
                reply =
                    UBXVersion(
                        software: "ROM SPG 5.10 (7b202e)", hardware: "000A0000",
                        extensions: ["FWVER=SPG 5.10", "PROTVER=34.10", "MOD=TEST-M10"]
                    ).frame
            } else if let set = UBXValueSet(frame) {
                let keys = set.values.map(\.key.id)
                lock.withLock { _received.append(keys) }
                let known = !keys.contains(unknown)
                reply = UBXAcknowledgement(accepted: known, messageClass: 0x06, id: 0x8A).frame
            }
            if let reply { _ = reply.bytes.withUnsafeBytes { terminal.writeAvailable($0) } }
        }
    }

    @Test func aValueSetRefusedWholeIsRetriedKeyByKeyAndTheUnknownKeyNamed() throws {
        // CFG-MSGOUT-NMEA_ID_GNS_UART1 plays the key this firmware lacks.
        let gns: UInt32 = 0x2091_00B6
        let receiver = try ScriptedReceiver(unknown: gns)
        defer {
            receiver.stop()
            usleep(10_000)
        }
        var job = ConfigureJob(path: receiver.terminal.slavePath)
        job.currentBaud = BaudRate(9600)
        job.rate = 2
        job.sentences = ["RMC", "GGA"]
        job.timeout = 0.5
        job.verifySeconds = 0.2
        let report = try job.run()
        #expect(report.interface == .ubloxValueSet)
        #expect(report.receiver == "u-blox TEST-M10, SPG 5.10, protocol 34.10")
        let sets = receiver.received
        // The whole set (rate, navigation cycles, every sentence key), then each key alone.
        #expect(sets.first?.count ?? 0 > 2 && sets.first?.contains(gns) == true, "\(sets)")
        #expect(Array(sets.dropFirst()) == sets.first.map { $0.map { [$0] } }, "\(sets)")
        let refused = report.steps.filter { if case .refused = $0.outcome { true } else { false } }.map(\.command)
        #expect(refused.count == 2, "\(report.steps.map(\.line))")
        #expect(refused.last == "UBX-CFG-VALSET key 0x209100B6=0")
        #expect(report.failure == .refused("the receiver refused UBX-CFG-VALSET key 0x209100B6=0 (UBX-ACK-NAK)"))
        #expect(report.notes.contains { $0.contains("was refused whole; retrying key by key") })
    }
}
