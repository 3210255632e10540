import NMEA
import Platform
import Receivers
import Synchronization
import SystemPackage

/// What happened to the device, in order, as the reader sees it.
public enum ReaderEvent {
    /// The device is open and produced valid NMEA (docs/events.md `device_connected`). `rate` is nil on
    /// CDC-ACM, where the line has no rate.
    case connected(path: String, rate: BaudRate?, kind: DeviceKind)
    /// Bytes as the device sent them; valid only during the callback.
    case data(UnsafeRawBufferPointer)
    /// The line has been silent for `ReadSchedule.quietGap` after a whole line, and the handler
    /// said a receiver cycle was still open (`ReadSchedule.Cues.noteCycleOpen`): the receiver has
    /// sent that cycle.
    case quiet
    /// The connected device went away: unplugged, hung up, or its path vanished (docs/events.md
    /// `device_lost`). The reader is already waiting for it to come back.
    case lost(path: String, reason: String)
    /// The device cannot be used right now (absent, permission denied, held by another program,
    /// no rate gives NMEA). Reported once per distinct problem; the reader keeps retrying.
    case unavailable(SerialError)
    /// Autobaud gave up on a full round of rates (no NMEA at any); it starts another round.
    case noNMEA(path: String, attempts: [Autobaud.Attempt])
}

/// Reads a serial GPS for as long as it is asked to, across unplugs and replugs.
///
/// Open, find the rate (pinned, remembered, or hunted), read; on EIO, ENXIO, end of file (hang up)
/// or a vanished path, close and reopen with exponential backoff, woken early by a udev "add" for
/// a tty where a udev daemon runs. Runs on the caller's thread until `stop()`. When to read next,
/// and so how long to sleep, is its `ReadSchedule`'s to say.
public final class Reader: Sendable {
    public struct Configuration: Sendable {
        public var path: String
        /// nil: autobaud (on ports that have a rate); else this rate, no hunting.
        public var rate: BaudRate?
        public var autobaud = Autobaud()
        /// Where the last good rate per device is kept (the caller's state folder); nil: nowhere.
        public var memory: BaudMemory?
        /// First reopen delay after a loss; doubles up to `maximumBackoff`.
        public var initialBackoff = 0.1
        public var maximumBackoff = 2.0
        /// Whether to watch udev for the device coming back.
        public var watchesUdev = true

        public init(path: String, rate: BaudRate? = nil) {
            self.path = path
            self.rate = rate
        }
    }

    public let configuration: Configuration
    /// What the handler (the decoder) and the engine tell the reader's schedule between reads.
    public let cues = ReadSchedule.Cues()
    private let stopped = Atomic<Bool>(false)

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// Asks `run` to return; safe from any thread and from a signal handler's flag check.
    public func stop() { stopped.store(true, ordering: .relaxed) }
    public var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// How late the kernel may end this thread's sleeps: the sleep to a cycle's foretold end
    /// (`ReadSchedule.CyclePace.slack` after it) would otherwise end up to Linux's default 50 µs
    /// later still, and the cycle be read that much late.
    static let timerSlackNanoseconds = 5000

    /// Reads until `stop()`, delivering events to `handler` on this thread (whose timer slack it
    /// sets to `timerSlackNanoseconds`).
    public func run(_ handler: (ReaderEvent) -> Void) {
        // Best effort: a refusal leaves the inherited slack.
        _ = setTimerSlack(nanoseconds: Self.timerSlackNanoseconds)
        let monitor = configuration.watchesUdev ? UdevMonitor() : nil
        var backoff = Backoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        var problems = OutageLog<SerialError>(.whenTheProblemChanges)
        while !isStopped {
            var connected = false
            do throws(SerialError) {
                switch try ReceiverPort.open(
                    configuration.path, rate: configuration.rate, autobaud: configuration.autobaud,
                    memory: configuration.memory, shouldStop: { isStopped })
                {
                case .opened(let receiver):
                    defer { receiver.close() }
                    try session(receiver, handler, connected: &connected)
                case .noNMEA(let attempts):
                    handler(.noNMEA(path: configuration.path, attempts: attempts))
                case .stopped:
                    break
                }
            } catch {
                if connected, error.isDisconnect {
                    handler(.lost(path: configuration.path, reason: error.description))
                    backoff.reset()
                } else if problems.failed(error) {
                    handler(.unavailable(error))
                }
            }
            if connected { _ = problems.recovered() }
            if isStopped { break }
            wait(backoff.next(), monitor: monitor)
        }
    }

    /// One open of the device, its rate settled: read until it goes away (thrown as a loss) or
    /// `stop()` (returns).
    private func session(
        _ receiver: ReceiverPort, _ handler: (ReaderEvent) -> Void, connected: inout Bool
    ) throws(SerialError) {
        let port = receiver.port
        let kind = receiver.kind
        // Pinned rate or CDC-ACM: connected once the first checksummed sentence arrives. A rate
        // found by autobaud has already proved itself.
        var validator: Framer? = Framer()
        if receiver.rateSource == .autobaud {
            validator = nil
            connected = true
            handler(.connected(path: configuration.path, rate: receiver.rate, kind: kind))
            receiver.leadingBytes.withUnsafeBytes { handler(.data($0)) }
        }
        // A UART hands over a few bytes at a time; CDC-ACM whole USB packets, at no line rate.
        var schedule = ReadSchedule(
            cues: cues, bytesPerSecond: kind == .cdcACM ? nil : port.rate?.bytesPerSecond,
            leadingBytesEndALine: receiver.leadingBytes.last == UInt8(ascii: "\n"), at: monotonicSeconds())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var pathCheckDue = monotonicSeconds() + 1
        var slept = false
        while !isStopped {
            var result = SerialPort.ReadResult.timeout
            if slept {
                // After a paced sleep the cycle's bytes should be waiting: read them without a poll
                // first. A port set to return at once (`VMIN` 0) reads 0 bytes both when nothing has
                // arrived yet and when it hung up, so anything but data goes through poll, which
                // tells the two apart.
                if case .data(let count) = try port.readAvailable(into: buffer), count > 0 {
                    result = .data(count)
                } else {
                    schedule.wokeToNothing()
                }
                slept = false
            }
            if result == .timeout {
                result = try port.read(into: buffer, timeout: schedule.longestWait(at: monotonicSeconds()))
            }
            switch result {
            case .timeout:
                switch schedule.timedOut(at: monotonicSeconds()) {
                case .closesCycle:
                    handler(.quiet)
                    continue
                case .waitsForClose:
                    continue
                case .idle:
                    break
                }
                // A silent port may be one whose path has gone or moved on (EIO never comes from a
                // descriptor nobody writes to any more): look once a second.
                if monotonicSeconds() >= pathCheckDue {
                    pathCheckDue = monotonicSeconds() + 1
                    if !port.isStillAtPath {
                        throw SerialError(
                            operation: "stat", path: port.path, errno: .noSuchFileOrDirectory,
                            hint: .pathMoved)
                    }
                }
            case .hangUp:
                throw SerialError(
                    operation: "read", path: port.path, errno: .ioError, hint: .hungUp)
            case .data(let count):
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                if let framer = validator {
                    // Pinned rate or CDC-ACM: connected once the first checksummed sentence arrives.
                    var valid = false
                    framer.push(chunk) { raw in if raw.hasChecksum { valid = true } }
                    if valid {
                        validator = nil
                        connected = true
                        handler(
                            .connected(path: configuration.path, rate: kind == .cdcACM ? nil : port.rate, kind: kind))
                    }
                }
                // When the bytes came, not when the handler is done with them: a live run's handler
                // may have put the fix through the engine in between.
                let readAt = monotonicSeconds()
                handler(.data(chunk))
                if let pause = schedule.pause(after: chunk, readAt: readAt), readAt + pause > monotonicSeconds() {
                    // To the time the schedule foretold, however long the handler took; a
                    // deadline past the clock's reach (never from a schedule) is not slept.
                    slept = (try? sleepUntil(monotonicSeconds: readAt + pause).get()) != nil
                }
            }
        }
    }

    /// Sleeps for the backoff, or less when udev announces a new tty.
    private func wait(_ seconds: Double, monitor: UdevMonitor?) {
        let deadline = monotonicSeconds() + seconds
        while !isStopped {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return }
            guard let monitor else {
                sleepSeconds(min(remaining, 0.1))
                continue
            }
            let events = (try? poll([(monitor.descriptor, .readable)], timeout: min(remaining, 0.1))) ?? [[]]
            if events[0].contains(.readable) {
                var added = false
                while let event = monitor.next() {
                    if event.action == "add" { added = true }
                }
                if added { return }
            }
        }
    }
}
