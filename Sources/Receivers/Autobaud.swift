import NMEA
import Platform

/// Finds the rate a receiver talks at (docs/hardware.md).
///
/// Tries the port's current speed first (what the driver or the last program left, often the
/// receiver's own), then the remembered rate, then the candidates in the order receivers ship
/// with. A rate is accepted as soon as `sentencesNeeded` sentences with a good checksum arrive, and
/// left as soon as its bytes prove it wrong (`WrongRateEvidence`); only a silent line, or bytes
/// that prove nothing either way, are listened to for the whole `window`. Sentences without a
/// checksum do not count: line noise at a wrong rate can frame as `$xx<CR>`, but it cannot also
/// match an XOR checksum twice.
///
/// Should no rate be accepted, the rates left early are listened to again for the whole window,
/// without the early exit: a receiver whose bytes only looked wrong (joined in the middle of a long
/// binary frame, say) is still found, at the old, slower pace.
public struct Autobaud: Sendable {
    /// The longest time spent at one rate; 2.5 s covers a 1 Hz receiver that sends one burst a
    /// second (the burst may have just passed when we start listening). Tests shorten it.
    public var window: Double = 2.5
    public var candidates: [BaudRate] = BaudRate.huntOrder
    public var sentencesNeeded = 2

    public init(window: Double = 2.5) { self.window = window }

    public struct Attempt: Equatable, Sendable {
        public var rate: BaudRate
        public var bytes: Int
        public var checksummedSentences: Int
        public var ending: Ending
    }

    /// Why listening at a rate ended.
    public enum Ending: Sendable, Equatable {
        /// Enough checksummed sentences: this is the rate.
        case accepted
        /// Bytes no NMEA line holds (framing errors, high-bit and control bytes).
        case noise
        /// A line's worth of bytes without a sentence start.
        case noSentenceStart
        /// The window passed: the line was silent, or its bytes proved nothing either way.
        case windowElapsed
        /// `shouldStop` said so.
        case stopped
    }

    public struct Outcome: Sendable {
        /// The rate accepted, or nil when none worked.
        public var rate: BaudRate?
        public var attempts: [Attempt]
        /// Every byte read at the accepted rate, for the consumer to decode: the sentences that
        /// proved the rate are data too.
        public var bytes: [UInt8]
    }

    /// The order to try: the line's current speed, the remembered rate, then the candidates; each
    /// once.
    public func order(current: BaudRate?, remembered: BaudRate?) -> [BaudRate] {
        var order: [BaudRate] = []
        for rate in [current, remembered].compactMap({ $0 }) + candidates where !order.contains(rate) {
            order.append(rate)
        }
        return order
    }

    /// Hunts on an open port, starting at the speed it has now (`SerialPort.open` with no rate
    /// leaves the speed it found). `shouldStop` is asked between reads (at least every 100 ms);
    /// `trying` is told each rate as listening at it begins (`record` says it).
    public func detect(
        _ port: SerialPort, remembered: BaudRate? = nil, shouldStop: () -> Bool = { false },
        trying: (BaudRate) -> Void = { _ in }
    ) throws(SerialError) -> Outcome {
        var attempts: [Attempt] = []
        var leftEarly: [BaudRate] = []
        for rate in order(current: port.rate, remembered: remembered) {
            if shouldStop() { break }
            let (attempt, bytes) = try listen(port, at: rate, patiently: false, shouldStop: shouldStop, trying: trying)
            attempts.append(attempt)
            switch attempt.ending {
            case .accepted: return Outcome(rate: rate, attempts: attempts, bytes: bytes)
            case .noise, .noSentenceStart: leftEarly.append(rate)
            case .windowElapsed, .stopped: break
            }
        }
        for rate in leftEarly {
            if shouldStop() { break }
            let (attempt, bytes) = try listen(port, at: rate, patiently: true, shouldStop: shouldStop, trying: trying)
            attempts.append(attempt)
            if attempt.ending == .accepted { return Outcome(rate: rate, attempts: attempts, bytes: bytes) }
        }
        return Outcome(rate: nil, attempts: attempts, bytes: [])
    }

    /// Listens at `rate` until it is accepted, proved wrong (unless `patiently`), the window
    /// passes, or `shouldStop`.
    private func listen(
        _ port: SerialPort, at rate: BaudRate, patiently: Bool, shouldStop: () -> Bool, trying: (BaudRate) -> Void
    ) throws(SerialError) -> (Attempt, [UInt8]) {
        // The speed the port has is kept as it is, with what has arrived at it since the open.
        if port.rate != rate { try port.setRate(rate) }
        trying(rate)
        let framer = Framer()
        var evidence = WrongRateEvidence()
        var received: [UInt8] = []
        var attempt = Attempt(rate: rate, bytes: 0, checksummedSentences: 0, ending: .windowElapsed)
        let deadline = monotonicSeconds() + window
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            if attempt.checksummedSentences >= sentencesNeeded {
                attempt.ending = .accepted
                break
            }
            if shouldStop() {
                attempt.ending = .stopped
                break
            }
            let provenRight = attempt.checksummedSentences > 0 || framer.counters.binaryFrames > 0
            if !patiently, let proof = evidence.proof(provenRight: provenRight) {
                attempt.ending = proof.ending
                break
            }
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { break }
            switch try port.read(into: buffer, timeout: min(remaining, 0.1)) {
            case .timeout: continue
            case .hangUp:
                throw SerialError(operation: "read", path: port.path, errno: .ioError, hint: .hungUp)
            case .data(let count):
                attempt.bytes += count
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                received += chunk
                evidence.observe(chunk)
                framer.push(chunk) { raw in
                    if raw.hasChecksum { attempt.checksummedSentences += 1 }
                }
            }
        }
        return (attempt, received)
    }
}

extension Autobaud.Ending: CustomStringConvertible {
    /// As `doctor` lists the attempts.
    public var description: String {
        switch self {
        case .accepted: "accepted"
        case .noise: "left on noise"
        case .noSentenceStart: "left: no sentence start"
        case .windowElapsed: "whole window"
        case .stopped: "stopped"
        }
    }
}

extension WrongRateEvidence.Proof {
    var ending: Autobaud.Ending {
        switch self {
        case .noise: .noise
        case .noSentenceStart: .noSentenceStart
        }
    }
}
