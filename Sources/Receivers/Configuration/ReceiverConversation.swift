import NMEA
import Platform

/// A command exchange with a receiver on an open port (`configure`, `doctor`): writes UBX frames
/// and PMTK sentences, and reads what comes back, UBX frames and NMEA sentences interleaved
/// (docs/hardware.md). Outcomes are values; only the port's own failures are thrown.
public final class ReceiverConversation {
    /// One thing read from the receiver.
    public enum Heard {
        case ubx(UBXFrame)
        /// A `$PMTK` sentence.
        case pmtk(PMTKCommand)
        /// Any other NMEA sentence, with its checksum checked (`$` to the checksum, no CR LF).
        case sentence([UInt8])
    }

    /// What became of one command.
    public enum Outcome: Equatable, Sendable {
        case accepted
        /// The receiver answered with a refusal (UBX-ACK-NAK, or a PMTK001 flag other than 3).
        case refused(detail: String)
        /// No answer within the timeout, after the retry.
        case unanswered
    }

    public let port: SerialPort
    private var frames = UBXFrameParser()
    private let framer = Framer()
    private var buffer = [UInt8](repeating: 0, count: 1024)

    public init(port: SerialPort) { self.port = port }

    /// Writes bytes, all of them.
    /// The corresponding C function is `write`.
    public func send(_ bytes: [UInt8]) throws(SerialError) {
        let failure: SerialError? = bytes.withUnsafeBytes { raw in
            do throws(SerialError) { try port.write(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Reads for up to `seconds`, handing each thing heard to `heard` until it returns true; true
    /// when it did, false at the timeout or a hang-up.
    /// The corresponding C functions are `poll` and `read`.
    public func listen(seconds: Double, until heard: (Heard) -> Bool) throws(SerialError) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while true {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            let read: Result<SerialPort.ReadResult, SerialError> = buffer.withUnsafeMutableBytes { raw in
                do throws(SerialError) { return .success(try port.read(into: raw, timeout: left)) } catch {
                    return .failure(error)
                }
            }
            switch try read.get() {
            case .timeout: continue
            case .hangUp: return false
            case .data(let count):
                var things: [Heard] = frames.push(buffer[..<count]).map { .ubx($0) }
                framer.push(contentsOf: buffer[..<count]) { raw in
                    let bytes = raw.bytes
                    if let command = PMTKCommand(sentence: String(decoding: bytes, as: UTF8.self)) {
                        things.append(.pmtk(command))
                    } else {
                        things.append(.sentence(Array(bytes)))
                    }
                }
                for thing in things where heard(thing) { return true }
            }
        }
    }

    /// Sends a UBX CFG message and waits for its UBX-ACK-ACK or ACK-NAK; sends it once more when
    /// nothing comes within `timeout`.
    public func command(_ frame: UBXFrame, timeout: Double) throws(SerialError) -> Outcome {
        for _ in 0..<2 {
            try send(frame.bytes)
            var answer: UBXAcknowledgement?
            _ = try listen(seconds: timeout) { heard in
                guard case .ubx(let reply) = heard, let ack = UBXAcknowledgement(reply),
                    ack.messageClass == frame.messageClass, ack.id == frame.id
                else { return false }
                answer = ack
                return true
            }
            if let answer { return answer.accepted ? .accepted : .refused(detail: "UBX-ACK-NAK") }
        }
        return .unanswered
    }

    /// Sends a PMTK command and waits for its `$PMTK001`; sends it once more when nothing comes
    /// within `timeout`.
    public func command(_ command: PMTKCommand, timeout: Double) throws(SerialError) -> Outcome {
        for _ in 0..<2 {
            try send(Array(command.sentence.utf8))
            var answer: PMTKAcknowledgement?
            _ = try listen(seconds: timeout) { heard in
                guard case .pmtk(let reply) = heard, let ack = PMTKAcknowledgement(reply),
                    ack.packetType == command.packetType
                else { return false }
                answer = ack
                return true
            }
            if let answer {
                return answer.flag == .succeeded
                    ? .accepted : .refused(detail: "PMTK001 flag \(answer.flag.rawValue) (\(answer.flag))")
            }
        }
        return .unanswered
    }

    /// Who the receiver is, when it says.
    public enum Identity: Equatable, Sendable {
        case ublox(UBXVersion)
        case mediaTek(PMTKFirmware)
    }

    /// Asks both ways (UBX-MON-VER and `$PMTK605`) and waits up to `seconds` for an answer; asks
    /// once more halfway. Sentence types heard meanwhile go to `sentence`.
    public func identify(seconds: Double, sentence: ([UInt8]) -> Void = { _ in }) throws(SerialError) -> Identity? {
        var identity: Identity?
        for _ in 0..<2 where identity == nil {
            try send(UBXMessage.poll(UBXMessage.Kind.monVer).bytes)
            try send(Array(PMTKCommand.firmwareQuery.sentence.utf8))
            _ = try listen(seconds: seconds / 2) { heard in
                switch heard {
                case .ubx(let frame):
                    if let version = UBXVersion(frame) { identity = .ublox(version) }
                case .pmtk(let command):
                    if let firmware = PMTKFirmware(command) { identity = .mediaTek(firmware) }
                case .sentence(let bytes):
                    sentence(bytes)
                }
                return identity != nil
            }
        }
        return identity
    }
}
