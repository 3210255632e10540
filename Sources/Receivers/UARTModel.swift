import Platform

/// What a UART listening at one rate delivers from a line driven at another.
///
/// The sender puts 8N1 frames back to back: a start bit (low), eight data bits least significant
/// first, a stop bit (high); the idle line is high. The receiver waits for a falling edge, samples
/// the middle of the start bit at its own bit time, then the eight data bits and the stop bit. A
/// low stop bit is a framing error, which Linux delivers as a NUL byte (`IGNPAR` and `PARMRK` off,
/// as in raw mode); after one the receiver waits for the line to go high before hunting for the
/// next start bit. The result is deterministic, so tests that rely on it are repeatable.
public enum UARTModel {
    /// One byte the receiver delivers, and when: seconds after the first bit was sent (the middle of
    /// its stop bit, when the UART hands the byte over).
    public struct Received: Equatable, Sendable {
        public var byte: UInt8
        public var time: Double
    }

    public static func receive(_ bytes: [UInt8], sentAt sent: BaudRate, readAt read: BaudRate) -> [Received] {
        var bits: [Bool] = []
        bits.reserveCapacity(bytes.count * 10)
        for byte in bytes {
            bits.append(false)
            for bit in 0..<8 { bits.append(byte >> bit & 1 == 1) }
            bits.append(true)
        }
        let senderBit = 1 / Double(sent.bitsPerSecond)
        let receiverBit = 1 / Double(read.bitsPerSecond)
        func level(_ time: Double) -> Bool {
            guard time >= 0 else { return true }
            let index = Int(time / senderBit)
            return index < bits.count ? bits[index] : true
        }
        var output: [Received] = []
        var cursor = 0.0
        while true {
            // The next falling edge: a low sender bit after a high one (or after the idle line).
            var index = Int((cursor / senderBit).rounded(.up))
            while index < bits.count, bits[index] || (index > 0 && !bits[index - 1]) { index += 1 }
            guard index < bits.count else { break }
            let edge = Double(index) * senderBit
            let startSample = edge + receiverBit / 2
            if level(startSample) {
                // A glitch shorter than half a bit: not a start bit.
                cursor = startSample
                continue
            }
            var value: UInt8 = 0
            for bit in 0..<8 where level(edge + (Double(bit) + 1.5) * receiverBit) { value |= 1 << UInt8(bit) }
            let stopSample = edge + 9.5 * receiverBit
            let framingError = !level(stopSample)
            output.append(Received(byte: framingError ? 0 : value, time: stopSample))
            cursor = stopSample
            if framingError {
                var high = Int(cursor / senderBit)
                while high < bits.count, !bits[high] { high += 1 }
                cursor = max(cursor, Double(high) * senderBit)
            }
        }
        return output
    }
}
