import Foundation
import NMEA
import Platform
import Receivers
import Synchronization
import Testing

/// Sends the same lines over and over on a simulated wire until stopped.
final class RepeatingWire: @unchecked Sendable {
    let terminal: PseudoTerminal
    let wire: SimulatedWire
    private let stopped = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    init(rate: Int, lines: [[UInt8]]) throws {
        terminal = try PseudoTerminal.open(rate: BaudRate(rate)!)
        wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(rate)!)
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                for line in lines { try? wire.send(line) }
                usleep(20_000)
            }
            finished.store(true, ordering: .relaxed)
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        while !finished.load(ordering: .relaxed) { usleep(1000) }
        terminal.close()
    }
}

/// A UBX frame around `payload`: Serial's own encoder, whose bytes ReceiverConversationTests checks
/// against byte strings from u-blox's protocol description.
func ubxTestFrame(class messageClass: UInt8, id: UInt8, payload: [UInt8]) -> [UInt8] {
    UBXFrame(messageClass: messageClass, id: id, payload: payload).bytes
}

extension PseudoTerminalTests {
    /// A u-blox that sends binary frames beside its sentences (docs/nmea.md).
    @Suite struct AutobaudBinaryTests {
        static let rmc = "$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"

        /// Binary frames whose payloads hold text that frames as checksummed sentences are not
        /// sentences: a receiver that only sends those is not taken for an NMEA receiver.
        @Test func sentenceLookalikesInsideFramesDoNotProveARate() throws {
            let frame = ubxTestFrame(class: 0x04, id: 0x02, payload: Array(Self.rmc.utf8))
            let sender = try RepeatingWire(rate: 38400, lines: [frame, frame])
            defer { sender.stop() }
            let port = try SerialPort.open(sender.terminal.slavePath, rate: nil)
            defer { port.close() }
            var autobaud = Autobaud(window: 0.4)
            autobaud.candidates = [BaudRate(38400)!]
            let outcome = try autobaud.detect(port)
            #expect(outcome.attempts.first?.bytes ?? 0 > 0)
            #expect(outcome.rate == nil)
        }

        /// Frames interleaved with sentences at the right rate: the rate is found, and the wrong
        /// rates before it (where the frames are garbage like everything else) are refused.
        @Test func interleavedFramesLeaveTheRateToTheSentences() throws {
            let navPVTPoll: [UInt8] = [0xB5, 0x62, 0x01, 0x07, 0x00, 0x00, 0x08, 0x19]
            let big = ubxTestFrame(class: 0x01, id: 0x35, payload: Array(repeating: 0x24, count: 300))
            let sender = try RepeatingWire(rate: 38400, lines: [big, Array(Self.rmc.utf8), navPVTPoll])
            defer { sender.stop() }
            // Left at 9600, as by another program: autobaud starts there.
            let port = try SerialPort.open(sender.terminal.slavePath, rate: BaudRate(9600))
            defer { port.close() }
            var autobaud = Autobaud(window: 0.6)
            autobaud.candidates = [BaudRate(9600)!, BaudRate(38400)!]
            let outcome = try autobaud.detect(port)
            #expect(outcome.rate == BaudRate(38400))
            #expect(outcome.attempts.first?.checksummedSentences == 0)
            let framer = Framer()
            framer.push(contentsOf: outcome.bytes) { _ in }
            #expect(framer.counters.binaryFrames >= 1)
        }
    }
}
