import NMEA
import Platform
import SystemPackage

/// The serial line of a simulated receiver: sentences go out paced at the receiver's baud rate,
/// and, on a pseudo-terminal, garbled the way a UART at the reader's (wrong) rate would see them.
///
/// A pseudo-terminal carries bytes intact at any speed; real wires do not. So the simulator plays
/// the wire: 4800 baud really delivers 480 bytes a second, and a reader that set 9600 on the slave
/// gets framing garbage instead of sentences, which is what makes autobaud testable for real.
public final class SimulatedWire {
    public enum Port {
        case pseudoTerminal(PseudoTerminal)
        /// A real serial port (a USB-serial adapter looped to the host under test): its UART paces
        /// and frames for real, so nothing is emulated.
        case device(SerialPort)
    }

    public let port: Port
    /// The receiver's line speed; a receiver told to change it (`simulate --receiver`) sends at
    /// the new one from its next byte.
    public var rate: BaudRate
    /// Whether the host's bytes are kept for `hostBytes()` (an emulated receiver reads them)
    /// instead of being discarded as a receiver that takes no commands would.
    public var listensToHost = false
    /// The host's line speed at the previous `hostBytes()`.
    private var hostRateLastSeen: BaudRate?
    public private(set) var counters = Counters()
    /// Monotonic time at which the line is next idle.
    private var idleAt = monotonicSeconds()

    public struct Counters: Equatable, Sendable {
        /// Sentences delivered as sent.
        public var clean = 0
        /// Sentences turned into framing garbage because the reader's rate differs.
        public var garbled = 0
        /// Sentences sent while no reader had the port open (lost, as on a real port).
        public var unheard = 0
        /// Bytes the reader's queue did not take.
        public var droppedBytes = 0
    }

    public init(port: Port, rate: BaudRate) {
        self.port = port
        self.rate = rate
    }

    /// Transmits one sentence (with its CR LF). Returns when its last byte has gone out.
    public func send(_ line: [UInt8]) throws(SerialError) {
        let byteTime = 10 / Double(rate.bitsPerSecond)
        let start = max(monotonicSeconds(), idleAt)
        idleAt = start + Double(line.count) * byteTime
        switch port {
        case .device(let serial):
            sleepSeconds(start - monotonicSeconds())
            let failure: SerialError? = line.withUnsafeBytes { bytes in
                do throws(SerialError) { try serial.write(bytes) } catch { return error }
                return nil
            }
            if let failure { throw failure }
            counters.clean += 1
        case .pseudoTerminal(let terminal):
            if !listensToHost { terminal.discardIncoming() }
            sleepSeconds(start - monotonicSeconds())
            guard terminal.hasReader else {
                counters.unheard += 1
                return
            }
            let readerRate = terminal.lineRate() ?? rate
            let delivered: [UARTModel.Received]
            if readerRate == rate {
                delivered = line.enumerated().map { UARTModel.Received(byte: $1, time: Double($0 + 1) * byteTime) }
                counters.clean += 1
            } else {
                delivered = UARTModel.receive(line, sentAt: rate, readAt: readerRate)
                counters.garbled += 1
            }
            deliver(delivered, startingAt: start, to: terminal)
            sleepSeconds(idleAt - monotonicSeconds())
        }
    }

    /// What the host wrote since the last call, as the receiver's UART received it: intact when
    /// the host's line speed is the receiver's, framing garbage otherwise (a host still at the old
    /// rate after a baud change is not understood, as with a real receiver).
    public func hostBytes() -> [UInt8] {
        switch port {
        case .device(let serial):
            var buffer = [UInt8](repeating: 0, count: 512)
            var received: [UInt8] = []
            while true {
                let result = buffer.withUnsafeMutableBytes { try? serial.readAvailable(into: $0) }
                guard case .data(let count) = result, count > 0 else { return received }
                received += buffer[..<count]
            }
        case .pseudoTerminal(let terminal):
            let hostRate = terminal.lineRate()
            defer { hostRateLastSeen = hostRate }
            let bytes = terminal.readIncoming()
            // Bytes waiting now were written at the rate the host had when last looked at: a host
            // that changed its speed since did so after writing them (a baud command first, then
            // the switch), however late this side gets to read them.
            guard !bytes.isEmpty, let sentAt = hostRateLastSeen ?? hostRate, sentAt != rate else { return bytes }
            return UARTModel.receive(bytes, sentAt: sentAt, readAt: rate).map(\.byte)
        }
    }

    /// Hands bytes over no earlier than the UART would, a few milliseconds' worth at a time.
    private func deliver(_ bytes: [UARTModel.Received], startingAt start: Double, to terminal: PseudoTerminal) {
        let granularity = 0.002
        var index = 0
        while index < bytes.count {
            sleepSeconds(start + bytes[index].time - monotonicSeconds())
            let now = monotonicSeconds() + granularity
            var end = index + 1
            while end < bytes.count, start + bytes[end].time <= now { end += 1 }
            let chunk = bytes[index..<end].map(\.byte)
            let written = chunk.withUnsafeBytes { terminal.writeAvailable($0) }
            counters.droppedBytes += chunk.count - written
            index = end
        }
    }
}
