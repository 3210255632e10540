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

    /// Whether a reader would hear what is sent now: on a pseudo-terminal, whether some process has
    /// the slave open; a real port is always heard.
    public var hasReader: Bool {
        switch port {
        case .pseudoTerminal(let terminal): terminal.hasReader
        case .device: true
        }
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
            if (terminal.lineRate() ?? rate) == rate { counters.clean += 1 } else { counters.garbled += 1 }
            deliver(line, startingAt: start, to: terminal)
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

    /// Hands `line` over no earlier than the UART would, a few milliseconds' worth at a time, as
    /// the reader's UART receives it at the speed the reader has set at that moment: a reader that
    /// changes its speed in the middle of a line (autobaud moving on) gets the rest of the line as
    /// the new speed sees it, clean once that is the receiver's, as from a real wire.
    private func deliver(_ line: [UInt8], startingAt start: Double, to terminal: PseudoTerminal) {
        let granularity = 0.002
        let byteTime = 10 / Double(rate.bitsPerSecond)
        var readerRate = terminal.lineRate() ?? rate
        // The reception in progress: of the bytes from `from` on, as `readerRate` hears them.
        var from = 0
        var bytes = received(line[...], at: readerRate)
        var index = 0
        while index < bytes.count {
            let origin = start + Double(from) * byteTime
            sleepSeconds(origin + bytes[index].time - monotonicSeconds())
            let now = monotonicSeconds()
            let current = terminal.lineRate() ?? rate
            if current != readerRate {
                // The rest of the line from the byte on the wire now; what was on it before the
                // change went to the old speed (and the reader's tcflush).
                from = min(line.count, Int(((now - start) / byteTime).rounded(.down)))
                readerRate = current
                bytes = received(line[from...], at: readerRate)
                index = 0
                continue
            }
            var end = index + 1
            while end < bytes.count, origin + bytes[end].time <= now + granularity { end += 1 }
            let chunk = bytes[index..<end].map(\.byte)
            let written = chunk.withUnsafeBytes { terminal.writeAvailable($0) }
            counters.droppedBytes += chunk.count - written
            index = end
        }
    }

    /// What a UART at `readerRate` makes of `bytes` sent back to back at the receiver's rate, with
    /// times from the first bit of the first.
    private func received(_ bytes: ArraySlice<UInt8>, at readerRate: BaudRate) -> [UARTModel.Received] {
        guard readerRate != rate else {
            let byteTime = 10 / Double(rate.bitsPerSecond)
            return bytes.enumerated().map { UARTModel.Received(byte: $1, time: Double($0 + 1) * byteTime) }
        }
        return UARTModel.receive(Array(bytes), sentAt: rate, readAt: readerRate)
    }
}
