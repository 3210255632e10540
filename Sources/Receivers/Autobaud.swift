import NMEA
import Platform

/// Finds the rate a receiver talks at (docs/hardware.md).
///
/// Tries each candidate in turn, listening for `window` seconds: a rate is accepted as soon as
/// `sentencesNeeded` sentences with a good checksum arrive. Sentences without a checksum do not
/// count: line noise at a wrong rate can frame as `$xx<CR>`, but it cannot also match an XOR
/// checksum twice.
public struct Autobaud: Sendable {
    /// Seconds to listen at each rate; 2.5 s covers a 1 Hz receiver that sends one burst a second
    /// (the burst may have just passed when we start listening). Tests shorten it.
    public var window: Double = 2.5
    public var candidates: [BaudRate] = BaudRate.huntOrder
    public var sentencesNeeded = 2

    public init(window: Double = 2.5) { self.window = window }

    public struct Attempt: Equatable, Sendable {
        public var rate: BaudRate
        public var bytes: Int
        public var checksummedSentences: Int
    }

    public struct Outcome: Sendable {
        /// The rate accepted, or nil when none worked.
        public var rate: BaudRate?
        public var attempts: [Attempt]
        /// Every byte read at the accepted rate, for the consumer to decode: the sentences that
        /// proved the rate are data too.
        public var bytes: [UInt8]
    }

    /// The order to try: the remembered rate first, then the rest of the candidates.
    public func order(remembered: BaudRate?) -> [BaudRate] {
        guard let remembered else { return candidates }
        return [remembered] + candidates.filter { $0 != remembered }
    }

    /// Hunts on an open port. `shouldStop` is asked between reads (at least every 100 ms);
    /// `trying` is told each rate as listening at it begins (`record` says it).
    public func detect(
        _ port: SerialPort, remembered: BaudRate? = nil, shouldStop: () -> Bool = { false },
        trying: (BaudRate) -> Void = { _ in }
    ) throws(SerialError) -> Outcome {
        var attempts: [Attempt] = []
        for rate in order(remembered: remembered) {
            if shouldStop() { break }
            try port.setRate(rate)
            trying(rate)
            let (attempt, bytes) = try listen(port, rate: rate, shouldStop: shouldStop)
            attempts.append(attempt)
            if attempt.checksummedSentences >= sentencesNeeded {
                return Outcome(rate: rate, attempts: attempts, bytes: bytes)
            }
        }
        return Outcome(rate: nil, attempts: attempts, bytes: [])
    }

    private func listen(
        _ port: SerialPort, rate: BaudRate, shouldStop: () -> Bool
    ) throws(SerialError) -> (Attempt, [UInt8]) {
        let framer = Framer()
        var received: [UInt8] = []
        var attempt = Attempt(rate: rate, bytes: 0, checksummedSentences: 0)
        let deadline = monotonicSeconds() + window
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
        defer { buffer.deallocate() }
        while attempt.checksummedSentences < sentencesNeeded, !shouldStop() {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { break }
            switch try port.read(into: buffer, timeout: min(remaining, 0.1)) {
            case .timeout: continue
            case .hangUp:
                throw SerialError(operation: "read", path: port.path, errno: .ioError, hint: "the device hung up")
            case .data(let count):
                attempt.bytes += count
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                received += chunk
                framer.push(chunk) { raw in
                    if raw.hasChecksum { attempt.checksummedSentences += 1 }
                }
            }
        }
        return (attempt, received)
    }
}
