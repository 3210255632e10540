import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Synchronization
import SystemPackage
import Testing
import Tools
import Waiting

extension PseudoTerminalTests {
    /// The reconnecting reader, fed by the simulator on real pseudo-terminals.
    @Suite struct ReaderTests {
        /// Runs a reader on its own thread, decoding what it delivers.
        final class ReaderThread: @unchecked Sendable {
            let reader: Reader
            let collector = FixCollector()
            private let said = Locked<[String]>([])
            private let fixesSoFar = Atomic<Int>(0)
            private let sentencesSoFar = Atomic<UInt64>(0)
            private let primersSoFar = Atomic<Int>(0)
            /// Frames the reader's bytes a second time to pick out the primers among them.
            private let primerWatch = Framer()
            private let bytesSoFar = Atomic<Int>(0)
            private let done = Atomic<Bool>(false)

            /// A sentence no route has, that a test sends until the reader hands one over: then the
            /// reader is reading, past the tcflush that follows setting its rate, and nothing sent
            /// after it can be flushed away.
            static let primer = SentenceWriter.sentence("GPTXT,01,01,02,reader is listening")

            /// What the reader said so far, in order.
            var events: [String] { said.withLock { $0 } }
            /// How many fixes the collector has so far: what a test waits on while the reader runs.
            var fixCount: Int { fixesSoFar.load(ordering: .acquiring) }
            /// How many whole sentences the collector has framed so far; a fix can be complete
            /// before the sentences that trail it in its epoch have been read.
            var sentenceCount: UInt64 { sentencesSoFar.load(ordering: .acquiring) }
            /// How many `ReaderThread.primer` sentences the reader has handed over so far.
            var primerCount: Int { primersSoFar.load(ordering: .acquiring) }
            /// How many bytes the reader has handed over so far.
            var byteCount: Int { bytesSoFar.load(ordering: .acquiring) }

            init(_ configuration: Reader.Configuration) {
                reader = Reader(configuration)
                Thread { [self] in
                    reader.run { event in
                        switch event {
                        case .connected(_, let rate, _): note("connected \(rate.map(\.description) ?? "-")")
                        case .data(let bytes):
                            collector.push(bytes)
                            fixesSoFar.store(collector.fixes.count, ordering: .releasing)
                            let counters = collector.decoder.framer.counters
                            sentencesSoFar.store(counters.sentences, ordering: .releasing)
                            var primers = 0
                            primerWatch.push(bytes) { raw in
                                if raw.bytes.starts(with: Self.primer.prefix(while: { $0 != UInt8(ascii: "*") })) {
                                    primers += 1
                                }
                            }
                            primersSoFar.add(primers, ordering: .releasing)
                            bytesSoFar.add(bytes.count, ordering: .releasing)
                        case .quiet: note("quiet")
                        case .lost: note("lost")
                        case .unavailable(let error): note("unavailable \(error.errno)")
                        case .noNMEA: note("no NMEA")
                        }
                    }
                    done.store(true, ordering: .releasing)
                }.start()
            }

            private func note(_ event: String) { said.withLock { $0.append(event) } }

            /// Stops the reader and waits for its thread; after this the collector is safe to read.
            func stop() {
                reader.stop()
                while !done.load(ordering: .acquiring) { usleep(1000) }
            }
        }

        func configuration(_ path: String, memory: BaudMemory) -> Reader.Configuration {
            var configuration = Reader.Configuration(path: path)
            configuration.memory = memory
            configuration.autobaud = Autobaud(window: 0.5)
            configuration.maximumBackoff = 0.2
            configuration.watchesUdev = false
            return configuration
        }

        @Test func simulatorToReaderGivesTheRoutesFixes() throws {
            let route = job(rate: 10, speed: 40)
            let expected = route.epochs(pass: 0, now: fixedStart).count
            let fixes = TrackPlayer.fixes(straightRoute(), rate: 10, speed: 40, start: fixedStart)
            #expect(fixes.count == expected)
            let simulator = try SimulatorThread(job: route, rate: 38400, waitForReader: true)
            let memory = BaudMemory(directory: temporaryDirectory())
            let reader = ReaderThread(configuration(simulator.path, memory: memory))
            // Until the reader has every fix: closing the simulator's side throws away what the
            // reader has not read yet.
            #expect(waitUntil { reader.fixCount >= fixes.count }, "\(reader.fixCount) of \(fixes.count) fixes")
            while !simulator.isFinished { usleep(10_000) }
            simulator.stop()
            #expect(waitUntil { reader.events.contains("lost") }, "the reader never saw the hang-up")
            reader.stop()

            #expect(reader.events.first == "connected 38400")
            #expect(reader.events.dropFirst().first == "lost", "the simulator's exit is a hang-up")
            #expect(memory.recall(simulator.path) == BaudRate(38400))
            // The simulator stayed silent until the reader set its rate: every fix of the route arrives.
            #expect(reader.collector.fixes.count == fixes.count)
            for (fix, expected) in zip(reader.collector.fixes, fixes) { #expect(matches(fix, expected)) }
        }

        @Test func survivesTheSimulatorDyingMidSentenceAndLosesNothingAfterReconnecting() throws {
            let directory = temporaryDirectory()
            let link = directory + "/gps0"
            let memory = BaudMemory(directory: directory + "/state")
            memory.remember(BaudRate(115200)!, for: link)
            let epochs = job(rate: 10, speed: 40).epochs(pass: 0, now: fixedStart)
            let fixes = TrackPlayer.fixes(straightRoute(), rate: 10, speed: 40, start: fixedStart)
            let cut = 10

            let primer = ReaderThread.primer
            let reader = ReaderThread(configuration(link, memory: memory))

            /// A new "device" behind the link, at the wrong rate until the reader sets the remembered
            /// one; returned once the reader is reading it.
            func plugIn() throws -> (PseudoTerminal, SimulatedWire) {
                let terminal = try PseudoTerminal.open(rate: BaudRate(9600)!)
                try replaceSymlink(link, pointingTo: terminal.slavePath)
                #expect(
                    waitUntil { terminal.hasReader && terminal.lineRate() == BaudRate(115200) },
                    "the reader never set the remembered rate")
                let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(115200)!)
                let primed = reader.primerCount
                var listening = false
                for _ in 0..<100 where !listening {
                    try wire.send(primer)
                    listening = waitUntil(timeout: 0.2) { reader.primerCount > primed }
                }
                #expect(listening, "the reader never read the primer")
                return (terminal, wire)
            }

            let (first, firstWire) = try plugIn()
            for epoch in epochs[..<cut] { for line in epoch.lines { try firstWire.send(line) } }
            let half = Array(epochs[cut].lines[0].prefix(30))
            try firstWire.send(half)  // half an RMC, then the plug is pulled
            // Closing the master throws away what the reader has not read yet: wait for all of it.
            let firstBytes = epochs[..<cut].reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } } + half.count
            #expect(
                waitUntil { reader.byteCount >= reader.primerCount * primer.count + firstBytes },
                "\(reader.byteCount) bytes read before the plug was pulled")
            first.close()
            let (second, secondWire) = try plugIn()
            for epoch in epochs[(cut + 1)...] { for line in epoch.lines { try secondWire.send(line) } }
            let sent = epochs.enumerated().filter { $0.offset != cut }.reduce(0) { $0 + $1.element.lines.count }
            #expect(
                waitUntil {
                    reader.fixCount >= fixes.count - 1 && reader.sentenceCount >= UInt64(sent + reader.primerCount)
                }, "\(reader.fixCount) fixes, \(reader.sentenceCount) of \(sent) sentences and the primers")
            reader.stop()
            second.close()

            let connections = reader.events.filter { $0.hasPrefix("connected") }
            #expect(connections == ["connected 115200", "connected 115200"])
            #expect(reader.events.filter { $0 == "lost" }.count == 1)
            #expect(firstWire.counters.garbled == 0 && secondWire.counters.garbled == 0)
            // Every complete sentence sent arrived; the half one was dropped as cut short.
            #expect(reader.collector.decoder.framer.counters.sentences == UInt64(sent + reader.primerCount))
            #expect(reader.collector.decoder.framer.counters.truncated == 1)
            let wanted = Array(fixes[..<cut]) + Array(fixes[(cut + 1)...])
            #expect(reader.collector.fixes.count == wanted.count)
            for (fix, expected) in zip(reader.collector.fixes, wanted) { #expect(matches(fix, expected)) }
        }

        @Test func theLiveSourceReportsConnectFixesAndLossInOrder() throws {
            let simulator = try SimulatorThread(job: job(rate: 10, speed: 40), rate: 38400, waitForReader: true)
            let memory = BaudMemory(directory: temporaryDirectory())
            memory.remember(BaudRate(38400)!, for: simulator.path)
            let source = SerialFixSource(configuration(simulator.path, memory: memory), rollover: .captures)
            let said = Locked<[String]>([])
            let done = Atomic<Bool>(false)
            Thread {
                source.run { event in
                    switch event {
                    case .fix(let fix, _): said.withLock { $0.append("fix \(fix.time?.description ?? "?")") }
                    case .connected(_, let detail): said.withLock { $0.append("connected \(detail ?? "-")") }
                    case .lost: said.withLock { $0.append("lost") }
                    case .problem: said.withLock { $0.append("problem") }
                    case .silentCycle, .endOfInput: break
                    }
                }
                done.store(true, ordering: .releasing)
            }.start()
            let fixes = TrackPlayer.fixes(straightRoute(), rate: 10, speed: 40, start: fixedStart)
            // Until the source has every fix: closing the simulator's side throws away what the
            // reader has not read yet.
            #expect(
                waitUntil { said.withLock { $0.filter { $0.hasPrefix("fix ") }.count } >= fixes.count },
                "\(said.withLock { $0 })")
            while !simulator.isFinished { usleep(10_000) }
            simulator.stop()
            #expect(waitUntil { said.withLock { $0.contains("lost") } }, "the source never saw the hang-up")
            source.stop()
            while !done.load(ordering: .acquiring) { usleep(1000) }
            let events = said.withLock { $0 }
            #expect(events.first == "connected at 38400 baud")
            let lostIndex = try #require(events.firstIndex(of: "lost"))
            // Every fix of the route, between the connection and the loss, in order.
            #expect(Array(events[1..<lostIndex]) == fixes.map { "fix \($0.time)" })
        }

        @Test func anEpochFollowedBySilenceGivesItsFixBeforeTheNextEpoch() throws {
            // A 1 Hz receiver's first burst, then the silence of the rest of its second: the fix is
            // out as soon as the line is quiet, though no later sentence has shown where the cycle
            // ends, instead of when the next burst's new time arrives.
            let terminal = try PseudoTerminal.open(rate: BaudRate(38400)!)
            var configuration = configuration(terminal.slavePath, memory: BaudMemory(directory: temporaryDirectory()))
            configuration.rate = BaudRate(38400)
            let source = SerialFixSource(configuration, rollover: .captures)
            let fixes = Atomic<Int>(0)
            let done = Atomic<Bool>(false)
            Thread {
                source.run { event in
                    if case .fix = event { fixes.add(1, ordering: .relaxed) }
                }
                done.store(true, ordering: .releasing)
            }.start()
            while !terminal.hasReader { usleep(1000) }
            usleep(50_000)  // past the reader's tcflush
            let wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: BaudRate(38400)!)
            let epochs = job(rate: 1, speed: 10).epochs(pass: 0, now: fixedStart)
            for (index, epoch) in epochs.prefix(3).enumerated() {
                for line in epoch.lines { try wire.send(line) }
                let sent = monotonicSeconds()
                while fixes.load(ordering: .relaxed) <= index, monotonicSeconds() - sent < 0.9 { usleep(2000) }
                #expect(fixes.load(ordering: .relaxed) == index + 1, "epoch \(index)'s fix before the next is sent")
            }
            source.stop()
            while !done.load(ordering: .acquiring) { usleep(1000) }
            terminal.close()
        }

        @Test func aPathThatMovesToAnotherDeviceIsALossAndTheNewDeviceIsRead() throws {
            // The old device stays open but silent (a lingering descriptor); only the path says it
            // is gone. Both lines run at the remembered rate.
            let directory = temporaryDirectory()
            let link = directory + "/gps0"
            let memory = BaudMemory(directory: directory)
            memory.remember(BaudRate(115200)!, for: link)
            let old = try PseudoTerminal.open(rate: BaudRate(115200)!)
            try replaceSymlink(link, pointingTo: old.slavePath)
            let oldWire = SimulatedWire(port: .pseudoTerminal(old), rate: BaudRate(115200)!)
            let reader = ReaderThread(configuration(link, memory: memory))
            let epochs = job(rate: 10, speed: 40).epochs(pass: 0, now: fixedStart)
            while !old.hasReader { usleep(1000) }
            usleep(50_000)
            for epoch in epochs[..<5] { for line in epoch.lines { try oldWire.send(line) } }
            let new = try PseudoTerminal.open(rate: BaudRate(9600)!)
            try replaceSymlink(link, pointingTo: new.slavePath)
            let deadline = monotonicSeconds() + 10
            while !(new.hasReader && new.lineRate() == BaudRate(115200)), monotonicSeconds() < deadline { usleep(2000) }
            usleep(50_000)
            // A child process another test starts holds the old slave too, from its fork to its exec.
            #expect(waitUntil { !old.hasReader }, "the reader let go of the old device")
            let newWire = SimulatedWire(port: .pseudoTerminal(new), rate: BaudRate(115200)!)
            for epoch in epochs[5..<10] { for line in epoch.lines { try newWire.send(line) } }
            #expect(waitUntil { reader.fixCount >= 9 }, "\(reader.fixCount) fixes")
            reader.stop()
            #expect(
                reader.events.filter { $0 != "unavailable \(Errno.noSuchFileOrDirectory)" } == [
                    "connected 115200", "lost", "connected 115200",
                ])
            #expect(reader.collector.fixes.count >= 9)
        }

        @Test func randomBytesFromThePortNeverCrashAndNeverMakeAFix() throws {
            let terminal = try PseudoTerminal.open(rate: BaudRate(115200)!)
            var configuration = configuration(terminal.slavePath, memory: BaudMemory(directory: temporaryDirectory()))
            configuration.rate = BaudRate(115200)
            let reader = ReaderThread(configuration)
            while !terminal.hasReader { usleep(1000) }
            usleep(50_000)
            // A fixed-seed generator: the same 256 KiB of noise every run, biased towards the
            // characters NMEA is made of so that the framer has plenty to chew on.
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            var noise = [UInt8](repeating: 0, count: 256 * 1024)
            let alphabet = Array("$!*,.0123456789ABCDEFGNPRMV\r\n".utf8)
            for index in noise.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let value = UInt8(truncatingIfNeeded: state >> 33)
                noise[index] = value < 128 ? alphabet[Int(value) % alphabet.count] : value
            }
            var offset = 0
            while offset < noise.count {
                let written = noise[offset...].withUnsafeBytes {
                    terminal.writeAvailable(UnsafeRawBufferPointer(rebasing: $0.prefix(4096)))
                }
                offset += written
                if written == 0 { usleep(1000) }
            }
            usleep(200_000)
            reader.stop()
            #expect(reader.collector.fixes.isEmpty)
            #expect(reader.collector.decoder.framer.counters.junkBytes > 0)
            #expect(!reader.events.contains("lost"))
        }

        @Test func aDeviceThatIsNotThereIsReportedOnceAndWaitedFor() throws {
            let directory = temporaryDirectory()
            let reader = ReaderThread(configuration(directory + "/gps9", memory: BaudMemory(directory: directory)))
            usleep(600_000)  // nothing more said in three retries (at most 0.2 s apart): not a wait for a state
            reader.stop()
            #expect(reader.events == ["unavailable \(Errno.noSuchFileOrDirectory)"])
        }
    }
}
