import NMEA
import Platform
import Receivers

/// The configuration interface of a real receiver, as `simulate --receiver` will play it: what it
/// answers to UBX and PMTK commands, and the output it then sends (docs/hardware.md). A state
/// machine only: bytes from the host in, answers and the new output settings out; the simulator's
/// wire carries both.
public final class EmulatedReceiver {
    public enum Model: String, Sendable, CaseIterable {
        case ubloxM8 = "ublox-m8"
        case ubloxM10 = "ublox-m10"
        case mtk
    }

    /// What the receiver sends, and how fast.
    public struct Output: Equatable, Sendable {
        /// Position outputs a second.
        public var rate: Double = 1
        /// Position fixes a second: MediaTek's PMTK220 changes the output rate only, and repeats
        /// the last fix until PMTK300 raises this too.
        public var fixRate: Double = 1
        public var sentences: Set<String> = ["GGA", "GSA", "GSV", "RMC", "VTG", "GLL"]
        public var baud: BaudRate = BaudRate(9600)!
        /// The UBX messages in which it reports jamming and spoofing, each epoch.
        public var integrityMessages: Set<UBXIntegrityMessage> = []
        /// Its jamming monitor (CFG-ITFM): off, it reports no jamming state.
        public var interferenceMonitor = false
    }

    public let model: Model
    public private(set) var output = Output()
    /// Settings written to battery-backed RAM or flash (CFG-CFG, VALSET to BBR/flash).
    public private(set) var saved: Output?
    private var ubx = UBXFrameParser()
    private let text = Framer()

    /// A receiver as it comes out of the box, sending at `rate` epochs a second on a line of `baud`.
    public init(model: Model, rate: Double = 1, baud: BaudRate = BaudRate(9600)!) {
        self.model = model
        if model == .mtk { output.sentences = ["GGA", "GSA", "GSV", "RMC"] }
        output.rate = rate
        output.fixRate = rate
        output.baud = baud
    }

    /// Reads bytes from the host; returns the answers to send, in order. An answer carrying a baud
    /// change is sent at the old rate; `output.baud` is the new one from then on.
    public func receive(_ bytes: [UInt8]) -> [[UInt8]] {
        var answers: [[UInt8]] = []
        if model != .mtk {
            for frame in ubx.push(bytes) { answers += answer(frame).map(\.bytes) }
        } else {
            var commands: [PMTKCommand] = []
            text.push(contentsOf: bytes) { raw in
                if let command = PMTKCommand(sentence: String(decoding: raw.bytes, as: UTF8.self)) {
                    commands.append(command)
                }
            }
            for command in commands { answers += answer(command).map { Array($0.sentence.utf8) } }
        }
        return answers
    }

    // MARK: u-blox

    private var version: UBXVersion {
        switch model {
        case .ubloxM10:
            UBXVersion(
                software: "ROM SPG 5.10 (7b202e)", hardware: "000A0000",
                extensions: ["FWVER=SPG 5.10", "PROTVER=34.10", "MOD=MAX-M10S"])
        default:
            UBXVersion(
                software: "ROM CORE 3.01 (107888)", hardware: "00080000",
                extensions: ["FWVER=SPG 3.01", "PROTVER=18.00", "MOD=NEO-M8N"])
        }
    }

    private func answer(_ frame: UBXFrame) -> [UBXFrame] {
        func ack(_ accepted: Bool) -> [UBXFrame] {
            [UBXAcknowledgement(accepted: accepted, messageClass: frame.messageClass, id: frame.id).frame]
        }
        let kind = (frame.messageClass, frame.id)
        if kind == UBXMessage.Kind.monVer, frame.payload.isEmpty { return [version.frame] }
        guard frame.messageClass == 0x06 else { return [] }
        if kind == UBXMessage.Kind.cfgValset {
            // Generation 8 does not know VALSET; generation 10 takes all keys or none.
            guard model == .ubloxM10, let set = UBXValueSet(frame) else { return ack(false) }
            var next = output
            for (key, value) in set.values {
                guard apply(key, value, to: &next) else { return ack(false) }
            }
            output = next
            if set.layers & (UBXValueSet.batteryBacked | UBXValueSet.flash) != 0 { saved = next }
            return ack(true)
        }
        // Legacy CFG messages: generation 10 refuses every one of them.
        guard model == .ubloxM8 else { return ack(false) }
        if let rate = UBXRate(frame), rate.measurementMilliseconds >= 25 {
            output.rate = 1000 / Double(rate.measurementMilliseconds) / Double(max(1, rate.navigationCycles))
            output.fixRate = output.rate
            return ack(true)
        }
        if let message = UBXMessageRate(frame), message.messageClass == 0xF0 {
            guard let name = Self.nmeaName(message.id) else { return ack(false) }
            if message.rate == 0 { output.sentences.remove(name) } else { output.sentences.insert(name) }
            return ack(true)
        }
        if let message = UBXMessageRate(frame),
            let report = UBXIntegrityMessage.named(messageClass: message.messageClass, id: message.id)
        {
            // Generation 8 has no MON-RF or SEC-SIG.
            guard report.isSent(byValueSetGeneration: false) else { return ack(false) }
            if message.rate == 0 {
                output.integrityMessages.remove(report)
            } else {
                output.integrityMessages.insert(report)
            }
            return ack(true)
        }
        if let monitor = UBXInterferenceMonitor(frame) {
            output.interferenceMonitor = monitor.enabled
            return ack(true)
        }
        if let port = UBXPortSettings(frame), port.port == 1, let baud = BaudRate(Int(port.baudRate)) {
            output.baud = baud
            return ack(true)
        }
        if kind == UBXMessage.Kind.cfgCfg, frame.payload.count >= 12 {
            saved = output
            return ack(true)
        }
        return ack(false)
    }

    private func apply(_ key: UBXConfigurationKey, _ value: UInt64, to next: inout Output) -> Bool {
        if key == .rateMeasurement {
            guard value >= 25 else { return false }
            next.rate = 1000 / Double(value)
            next.fixRate = next.rate
            return true
        }
        if key == .rateNavigation { return value >= 1 }
        if key == .uart1BaudRate {
            guard let baud = BaudRate(Int(value)) else { return false }
            next.baud = baud
            return true
        }
        if key == .uart1UBXOutput { return true }
        if key == .interferenceMonitor {
            next.interferenceMonitor = value != 0
            return true
        }
        if let report = UBXIntegrityMessage.valueSet(key) {
            if value == 0 { next.integrityMessages.remove(report) } else { next.integrityMessages.insert(report) }
            return true
        }
        guard let name = ConfigurableSentence.valueSet(key.id)?.name else { return false }
        if value == 0 { next.sentences.remove(name) } else { next.sentences.insert(name) }
        return true
    }

    private static func nmeaName(_ id: UInt8) -> String? { ConfigurableSentence.ubx(id)?.name }

    /// The UBX reports it sends with an epoch in which it hears `condition`, in u-blox's order
    /// (NAV, then MON, then SEC).
    public func integrityFrames(_ condition: SignalCondition, timeOfWeek: UInt32) -> [[UInt8]] {
        guard model != .mtk else { return [] }
        let flags = condition.receiverFlags
        return UBXIntegrityMessage.allCases.filter(output.integrityMessages.contains).map {
            $0.frame(flags, detects: output.interferenceMonitor, timeOfWeek: timeOfWeek).bytes
        }
    }

    // MARK: MediaTek

    private func answer(_ command: PMTKCommand) -> [PMTKCommand] {
        func ack(_ flag: PMTKAcknowledgement.Flag) -> [PMTKCommand] {
            [PMTKAcknowledgement(packetType: command.packetType, flag: flag).command]
        }
        switch command.packetType {
        case 605:
            return [PMTKCommand(packetType: 705, fields: ["AXN_2.31_3339_13101700", "5632", "PA6H", "1.0"])]
        case 220, 300:
            guard let milliseconds = command.fields.first.flatMap({ Int($0) }), (100...10000).contains(milliseconds)
            else { return ack(.failed) }
            if command.packetType == 220 { output.rate = 1000 / Double(milliseconds) }
            if command.packetType == 300 { output.fixRate = 1000 / Double(milliseconds) }
            return ack(.succeeded)
        case 314:
            guard command.fields.count == ConfigurableSentence.pmtkFieldCount else { return ack(.invalid) }
            var sentences = Set<String>()
            for row in ConfigurableSentence.table {
                if let field = row.pmtkField, command.fields[field] != "0" { sentences.insert(row.name) }
            }
            output.sentences = sentences
            return ack(.succeeded)
        case 251:
            // No acknowledgement: the answer is sentences at the new rate.
            if let rate = command.fields.first.flatMap({ Int($0) }).flatMap(BaudRate.init) { output.baud = rate }
            return []
        default:
            return ack(.unsupported)
        }
    }
}
