import Jobs
import LiveLoop
import NMEA
import Platform
import Testing
import Tools

@testable import Receivers

extension PseudoTerminalTests {
    /// Autobaud against the simulator's wire on a real pseudo-terminal: wrong rates see UART garbage.
    @Suite struct AutobaudTests {
        /// The port left at 9600 by "the last program", the receiver at 57600, 10 Hz: each wrong
        /// rate is left on its first garbage, long before the 2.5 s window it would once have
        /// waited out (four of them: 10 s).
        @Test func findsTheSimulatorsRateAfterLeavingTheWrongOnesOnTheirGarbage() throws {
            var loop = job(rate: 10, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 57600)
            defer { simulator.stop() }
            let port = try SerialPort.open(simulator.path, rate: BaudRate(9600))
            let autobaud = Autobaud()
            let started = monotonicSeconds()
            let outcome = try autobaud.detect(port)
            let took = monotonicSeconds() - started
            #expect(outcome.rate == BaudRate(57600))
            #expect(outcome.attempts.map(\.rate.bitsPerSecond) == [9600, 4800, 38400, 115200, 57600])
            for wrong in outcome.attempts.dropLast() {
                #expect(wrong.checksummedSentences == 0, "\(wrong.rate)")
                #expect(wrong.ending == .noise || wrong.ending == .noSentenceStart, "\(wrong.rate): \(wrong.ending)")
            }
            #expect(outcome.attempts.last?.ending == .accepted)
            #expect(took < 5, "\(took) s")
            // The bytes that proved the rate are handed on, and they decode.
            let collector = FixCollector()
            collector.push(outcome.bytes)
            #expect(collector.decoder.framer.counters.sentences >= 2)

            // The port is now at 57600: its current speed is tried first, one attempt.
            let again = try autobaud.detect(port)
            #expect(again.attempts.map(\.rate) == [BaudRate(57600)])

            // Left at a wrong speed, the remembered rate comes right after it.
            try port.setRate(BaudRate(4800)!)
            let remembered = try autobaud.detect(port, remembered: BaudRate(57600))
            #expect(remembered.attempts.map(\.rate.bitsPerSecond) == [4800, 57600])
        }

        /// 1 Hz at 115200, the port at the receiver's speed as the driver or the simulator left it:
        /// found on the first burst (the old hunt from 9600 took 9 s).
        @Test func startsAtThePortsCurrentSpeed() throws {
            var loop = job(rate: 1, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 115200)
            defer { simulator.stop() }
            let port = try SerialPort.open(simulator.path, rate: nil)
            let started = monotonicSeconds()
            let outcome = try Autobaud().detect(port)
            let took = monotonicSeconds() - started
            #expect(outcome.rate == BaudRate(115200))
            #expect(outcome.attempts.map(\.rate) == [BaudRate(115200)])
            #expect(took < 2.5, "\(took) s")
        }

        /// A silent line proves nothing: each rate gets its whole window.
        @Test func aSilentLineIsListenedToForTheWholeWindowThenGivenUp() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            let port = try SerialPort.open(terminal.slavePath, rate: nil)
            var autobaud = Autobaud(window: 0.4)
            autobaud.candidates = [BaudRate(9600)!, BaudRate(4800)!]
            let started = monotonicSeconds()
            let outcome = try autobaud.detect(port)
            let took = monotonicSeconds() - started
            #expect(outcome.rate == nil)
            #expect(outcome.attempts.map(\.rate.bitsPerSecond) == [9600, 4800])
            #expect(outcome.attempts.allSatisfy { $0.ending == .windowElapsed && $0.bytes == 0 })
            #expect(took >= 0.8, "\(took) s")
        }

        @Test func wrongRateGarbageFromTheWireNeverYieldsAFix() throws {
            var loop = job(rate: 5, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 9600)
            defer { simulator.stop() }
            for rate in [4800, 19200, 38400, 115200] {
                let port = try SerialPort.open(simulator.path, rate: BaudRate(rate)!)
                let bytes = try readFor(port, seconds: 0.5)
                port.close()
                let collector = FixCollector()
                collector.push(bytes)
                collector.decoder.finish { collector.fixes.append($0) }
                #expect(!bytes.isEmpty, "at \(rate) the UART still delivers bytes")
                #expect(collector.fixes.isEmpty, "at \(rate)")
                let counters = collector.decoder.framer.counters
                #expect(counters.sentences == counters.withoutChecksum, "at \(rate)")
            }
            #expect(simulator.wire.counters.garbled > 0)
        }

        /// What the UART model makes of a burst of sentences at every other pair of common rates is
        /// proved wrong by the bytes of that one burst; the sentences themselves prove nothing
        /// against their own rate.
        @Test func oneBurstAtAWrongRateProvesItWrong() {
            let burst = Array(
                ("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n"
                    + "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n"
                    + "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39\r\n").utf8)
            var clean = WrongRateEvidence()
            burst.withUnsafeBytes { clean.observe($0) }
            #expect(clean.proof(provenRight: false) == nil)
            let rates = [4800, 9600, 19200, 38400, 57600, 115200, 230400].map { BaudRate($0)! }
            for sent in rates {
                for read in rates where read != sent {
                    let garbage = UARTModel.receive(burst, sentAt: sent, readAt: read).map(\.byte)
                    var evidence = WrongRateEvidence()
                    garbage.withUnsafeBytes { evidence.observe($0) }
                    #expect(evidence.proof(provenRight: false) != nil, "sent at \(sent), read at \(read)")
                    #expect(evidence.proof(provenRight: true) == nil)
                }
            }
            var text = WrongRateEvidence()
            Array(repeating: UInt8(ascii: "A"), count: WrongRateEvidence.lineLimit).withUnsafeBytes { text.observe($0) }
            #expect(text.proof(provenRight: false) == .noSentenceStart)
        }

        /// Bytes that only look wrong at the right rate (a long line with no sentence start) cost
        /// the early exit, not the rate: it is listened to again for its whole window.
        @Test func aRateLeftEarlyIsHeardOutBeforeGivingUp() throws {
            let banner = Array(repeating: UInt8(ascii: "A"), count: 400) + [0x0D, 0x0A]
            let rmc = Array("$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W*6A\r\n".utf8)
            let sender = try RepeatingWire(rate: 38400, lines: [banner, banner, rmc, banner, banner, rmc])
            defer { sender.stop() }
            let port = try SerialPort.open(sender.terminal.slavePath, rate: nil)
            defer { port.close() }
            var autobaud = Autobaud(window: 1)
            autobaud.candidates = []
            let outcome = try autobaud.detect(port)
            #expect(outcome.rate == BaudRate(38400))
            #expect(outcome.attempts.last?.ending == .accepted)
            if outcome.attempts.count == 2 { #expect(outcome.attempts[0].ending == .noSentenceStart) }
        }

        @Test func remembersTheLastGoodRatePerDevice() {
            let memory = BaudMemory(directory: temporaryDirectory() + "/state/gpsfence")
            #expect(memory.recall("/dev/ttyUSB0") == nil)
            memory.remember(BaudRate(4800)!, for: "/dev/ttyUSB0")
            memory.remember(BaudRate(38400)!, for: "/dev/serial/by-id/usb-Prolific-if00-port0")
            memory.remember(BaudRate(115200)!, for: "/dev/ttyUSB0")
            #expect(memory.recall("/dev/ttyUSB0") == BaudRate(115200))
            #expect(memory.recall("/dev/serial/by-id/usb-Prolific-if00-port0") == BaudRate(38400))
            #expect(
                Autobaud().order(current: BaudRate(9600), remembered: BaudRate(115200)).map(\.bitsPerSecond) == [
                    9600, 115200, 4800, 38400, 57600, 19200, 230400,
                ])
            #expect(
                Autobaud().order(current: nil, remembered: nil).map(\.bitsPerSecond) == [
                    9600, 4800, 38400, 115200, 57600, 19200, 230400,
                ])
        }
    }
}
