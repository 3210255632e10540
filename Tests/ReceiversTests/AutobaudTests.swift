import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Testing
import Tools

extension PseudoTerminalTests {
    /// Autobaud against the simulator's wire on a real pseudo-terminal: wrong rates see UART garbage.
    @Suite struct AutobaudTests {
        @Test func findsTheSimulatorsRateAfterTryingTheOnesBeforeItInOrder() throws {
            var loop = job(rate: 10, speed: 30)
            loop.loop = true
            let simulator = try SimulatorThread(job: loop, rate: 57600)
            defer { simulator.stop() }
            let port = try SerialPort.open(simulator.path, rate: nil)
            var autobaud = Autobaud(window: 0.4)
            let outcome = try autobaud.detect(port)
            #expect(outcome.rate == BaudRate(57600))
            #expect(outcome.attempts.map(\.rate.bitsPerSecond) == [9600, 4800, 38400, 115200, 57600])
            for wrong in outcome.attempts.dropLast() {
                #expect(wrong.checksummedSentences == 0, "\(wrong.rate)")
            }
            #expect(outcome.attempts.dropLast().contains { $0.bytes > 0 }, "garbage arrived at the wrong rates")
            // The bytes that proved the rate are handed on, and they decode.
            let collector = FixCollector()
            collector.push(outcome.bytes)
            #expect(collector.decoder.framer.counters.sentences >= 2)

            // The remembered rate is tried first: one attempt.
            autobaud.window = 1
            let again = try autobaud.detect(port, remembered: BaudRate(57600))
            #expect(again.attempts.map(\.rate) == [BaudRate(57600)])
        }

        @Test func givesUpWhenNoRateCarriesNMEA() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
            let port = try SerialPort.open(terminal.slavePath, rate: nil)
            var autobaud = Autobaud(window: 0.05)
            autobaud.candidates = [BaudRate(9600)!, BaudRate(4800)!]
            let outcome = try autobaud.detect(port)
            #expect(outcome.rate == nil)
            #expect(outcome.attempts.count == 2)
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

        @Test func remembersTheLastGoodRatePerDevice() {
            let memory = BaudMemory(directory: temporaryDirectory() + "/state/gpsfence")
            #expect(memory.recall("/dev/ttyUSB0") == nil)
            memory.remember(BaudRate(4800)!, for: "/dev/ttyUSB0")
            memory.remember(BaudRate(38400)!, for: "/dev/serial/by-id/usb-Prolific-if00-port0")
            memory.remember(BaudRate(115200)!, for: "/dev/ttyUSB0")
            #expect(memory.recall("/dev/ttyUSB0") == BaudRate(115200))
            #expect(memory.recall("/dev/serial/by-id/usb-Prolific-if00-port0") == BaudRate(38400))
            #expect(
                Autobaud().order(remembered: BaudRate(115200)).map(\.bitsPerSecond) == [
                    115200, 9600, 4800, 38400, 57600, 19200, 230400,
                ])
        }
    }
}
