import Platform

/// The one way to open a receiver (docs/hardware.md), shared by the live reader, `record` and `doctor`:
/// open the port, then find its rate: pinned by the user, else autobaud (the port's current speed,
/// then the remembered rate, then the standard rates); none on CDC-ACM, whose USB link has no rate.
public struct ReceiverPort {
    public enum RateSource: Sendable, Equatable {
        /// `--baud N`: no hunting.
        case pinned
        /// Found by autobaud (the current speed and the remembered rate are tried first).
        case autobaud
        /// CDC-ACM: the line has no rate.
        case none
    }

    public let port: SerialPort
    public let kind: DeviceKind
    public let rateSource: RateSource
    /// The rate in use; nil on CDC-ACM.
    public let rate: BaudRate?
    /// Autobaud's attempts, in order (empty unless it hunted).
    public let attempts: [Autobaud.Attempt]
    /// Bytes read while proving the rate: they are data too.
    public let leadingBytes: [UInt8]

    public enum Outcome {
        case opened(ReceiverPort)
        /// No rate gave NMEA (the port is closed again).
        case noNMEA(attempts: [Autobaud.Attempt])
        /// `shouldStop` said so while hunting (the port is closed again).
        case stopped
    }

    /// Opens `path`, leaving its speed as found, and settles its rate. The rate autobaud accepts is
    /// remembered for next time.
    /// - Throws: `SerialError` when the port cannot be opened or configured.
    public static func open(
        _ path: String, rate: BaudRate?, autobaud: Autobaud, memory: BaudMemory?, shouldStop: () -> Bool = { false },
        trying: (BaudRate) -> Void = { _ in }
    ) throws(SerialError) -> Outcome {
        let port = try SerialPort.open(path, rate: rate)
        let kind = DeviceKind.of(path)
        if let rate {
            return .opened(
                ReceiverPort(port: port, kind: kind, rateSource: .pinned, rate: rate, attempts: [], leadingBytes: []))
        }
        guard kind.huntsBaud else {
            return .opened(
                ReceiverPort(port: port, kind: kind, rateSource: .none, rate: nil, attempts: [], leadingBytes: []))
        }
        let outcome: Autobaud.Outcome
        do {
            outcome = try autobaud.detect(
                port, remembered: memory?.recall(path), shouldStop: shouldStop, trying: trying)
        } catch {
            port.close()
            throw error
        }
        guard let found = outcome.rate else {
            port.close()
            return shouldStop() ? .stopped : .noNMEA(attempts: outcome.attempts)
        }
        memory?.remember(found, for: path)
        return .opened(
            ReceiverPort(
                port: port, kind: kind, rateSource: .autobaud, rate: found, attempts: outcome.attempts,
                leadingBytes: outcome.bytes))
    }

    public func close() { port.close() }
}
