import NMEA
import Platform
import Receivers

/// An emulated receiver on a simulator's wire (`simulate --receiver`): it reads what the host
/// writes, answers on the wire, and its settings decide what the next epochs send (docs/hardware.md).
final class ReceiverLine {
    let receiver: EmulatedReceiver
    let wire: SimulatedWire

    init(receiver: EmulatedReceiver, wire: SimulatedWire) {
        self.receiver = receiver
        self.wire = wire
        wire.listensToHost = true
        wire.rate = receiver.output.baud
    }

    /// Reads the host's bytes, sends the answers at the line's present rate, then takes the
    /// receiver's line rate (an answer to a baud change goes out at the old one, as a UART's does).
    func serviceHost() throws(SerialError) {
        let bytes = wire.hostBytes()
        guard !bytes.isEmpty else { return }
        for answer in receiver.receive(bytes) { try wire.send(answer) }
        wire.rate = receiver.output.baud
    }

    /// The lines of an epoch that the receiver's sentence settings let out.
    func enabled(_ lines: [[UInt8]]) -> [[UInt8]] {
        let sentences = receiver.output.sentences
        return lines.filter { line in
            // "$GPRMC,...": the sentence type is the three letters after the talker.
            guard line.count > 6 else { return true }
            return sentences.contains(String(decoding: line[3..<6], as: UTF8.self))
        }
    }

    /// What the receiver sends for an epoch: the lines its settings let out, then the UBX
    /// reports it was told to send.
    func output(for epoch: SimulateJob.Epoch) -> [[UInt8]] {
        var sent = enabled(epoch.lines)
        if let condition = epoch.condition {
            // GPS time of week: from 1980-01-06, 18 leap seconds ahead of UTC.
            let timeOfWeek = epoch.time.map {
                UInt32(clamping: ($0.millisecondsSinceEpoch - 315_964_800_000 + 18_000) % 604_800_000)
            }
            sent += receiver.integrityFrames(condition, timeOfWeek: timeOfWeek ?? 0)
        }
        return sent
    }

    /// Position fixes a second (a track is walked at this rate).
    var fixRate: Double { min(receiver.output.fixRate, receiver.output.rate) }

    /// How many times each fix goes out: a MediaTek whose output rate was raised without its fix
    /// rate repeats the same fix (docs/hardware.md).
    var repeats: Int { max(1, Int((receiver.output.rate / fixRate).rounded())) }
}
