import NMEA
import Platform
import Receivers

/// One configuration command, receiver-specific, with a label for the report.
struct ReceiverCommand {
    enum Message {
        case ubx(UBXFrame)
        case pmtk(PMTKCommand)
    }

    enum Effect: Equatable {
        case none
        /// The receiver talks at this rate once the command is taken.
        case baud(BaudRate)
    }

    var label: String
    var message: Message
    var effect: Effect = .none
    /// A refusal is a note, not a failure: a feature some firmware lacks.
    var isOptional = false
}

extension ConfigureJob.Plan {
    /// The commands for `interface`, in the order they are sent: rate and sentences first, then
    /// the baud (whose answer comes at the old rate), then the save (at the new one).
    func commands(for interface: ReceiverInterface) -> [ReceiverCommand] {
        switch interface {
        case .ubloxLegacy: legacyCommands
        case .ubloxValueSet: valueSetCommands
        case .mediaTek: mediaTekCommands
        }
    }

    private var milliseconds: Int? { rate.map { Int((1000 / $0).rounded()) } }

    private var legacyCommands: [ReceiverCommand] {
        var commands: [ReceiverCommand] = []
        if let milliseconds {
            let frame = UBXRate(measurementMilliseconds: UInt16(clamping: milliseconds)).frame
            commands.append(ReceiverCommand(label: "UBX-CFG-RATE \(milliseconds) ms", message: .ubx(frame)))
        }
        if let sentences {
            for row in ConfigurableSentence.table {
                guard let id = row.ubxMessageID else { continue }
                let name = row.name
                let on = sentences.contains(name)
                let frame = UBXMessageRate(messageClass: 0xF0, id: id, rate: on ? 1 : 0).frame
                commands.append(
                    ReceiverCommand(label: "UBX-CFG-MSG \(name) \(on ? "on" : "off")", message: .ubx(frame)))
            }
        }
        if integrity {
            commands.append(
                ReceiverCommand(
                    label: "UBX-CFG-ITFM jamming monitor on",
                    message: .ubx(UBXInterferenceMonitor(enabled: true).frame)))
            for report in UBXIntegrityMessage.allCases where report.isSent(byValueSetGeneration: false) {
                let frame = UBXMessageRate(messageClass: report.messageClass, id: report.id, rate: 1).frame
                commands.append(ReceiverCommand(label: "UBX-CFG-MSG \(report.name) on", message: .ubx(frame)))
            }
        }
        if let baud {
            let frame = UBXPortSettings(baudRate: UInt32(baud.bitsPerSecond)).frame
            commands.append(
                ReceiverCommand(label: "UBX-CFG-PRT UART1 \(baud) baud", message: .ubx(frame), effect: .baud(baud)))
        }
        if save {
            commands.append(
                ReceiverCommand(label: "UBX-CFG-CFG save to BBR and flash", message: .ubx(UBXSaveConfiguration().frame))
            )
        }
        return commands
    }

    private var valueSetCommands: [ReceiverCommand] {
        let layers = save ? UBXValueSet.ram | UBXValueSet.batteryBacked | UBXValueSet.flash : UBXValueSet.ram
        let layerNames = save ? "RAM, BBR and flash" : "RAM"
        var values: [(key: UBXConfigurationKey, value: UInt64)] = []
        var names: [String] = []
        if let milliseconds {
            values.append((.rateMeasurement, UInt64(milliseconds)))
            values.append((.rateNavigation, 1))
            names.append("rate \(milliseconds) ms")
        }
        if let sentences {
            for row in ConfigurableSentence.table {
                guard let key = row.valueSetKey else { continue }
                values.append((UBXConfigurationKey(key), sentences.contains(row.name) ? 1 : 0))
            }
            names.append("sentences \(sentences.joined(separator: ","))")
        }
        var commands: [ReceiverCommand] = []
        if !values.isEmpty {
            let frame = UBXValueSet(layers: layers, values: values).frame
            commands.append(
                ReceiverCommand(
                    label: "UBX-CFG-VALSET \(names.joined(separator: ", ")) in \(layerNames)", message: .ubx(frame)))
        }
        if integrity {
            // UBX-SEC-SIG came with later firmware: asked for on its own, so that a receiver
            // without it still takes the rest.
            var reports: [(key: UBXConfigurationKey, value: UInt64)] = [
                (.uart1UBXOutput, 1), (.interferenceMonitor, 1),
            ]
            for report in UBXIntegrityMessage.allCases where report.isSent(byValueSetGeneration: true) {
                if report != .signalSecurity, let key = report.valueSetKey { reports.append((key, 1)) }
            }
            commands.append(
                ReceiverCommand(
                    label: "UBX-CFG-VALSET jamming monitor on, UBX-NAV-STATUS and UBX-MON-RF on UART1 in \(layerNames)",
                    message: .ubx(UBXValueSet(layers: layers, values: reports).frame)))
            if let key = UBXIntegrityMessage.signalSecurity.valueSetKey {
                commands.append(
                    ReceiverCommand(
                        label: "UBX-CFG-VALSET UBX-SEC-SIG on UART1 in \(layerNames)",
                        message: .ubx(UBXValueSet(layers: layers, values: [(key, 1)]).frame), isOptional: true))
            }
        }
        if let baud {
            let frame = UBXValueSet(layers: layers, values: [(.uart1BaudRate, UInt64(baud.bitsPerSecond))]).frame
            commands.append(
                ReceiverCommand(
                    label: "UBX-CFG-VALSET UART1 \(baud) baud in \(layerNames)", message: .ubx(frame),
                    effect: .baud(baud)))
        }
        return commands
    }

    private var mediaTekCommands: [ReceiverCommand] {
        var commands: [ReceiverCommand] = []
        if let milliseconds {
            commands.append(
                ReceiverCommand(
                    label: "$PMTK220 output every \(milliseconds) ms",
                    message: .pmtk(.outputInterval(milliseconds: milliseconds))))
            // Without PMTK300 the output rate rises but the receiver repeats the same fix.
            commands.append(
                ReceiverCommand(
                    label: "$PMTK300 fix every \(milliseconds) ms",
                    message: .pmtk(.fixInterval(milliseconds: milliseconds))))
        }
        if let sentences {
            commands.append(
                ReceiverCommand(
                    label: "$PMTK314 sentences \(sentences.joined(separator: ","))",
                    message: .pmtk(.sentences(Set(sentences)))))
        }
        if let baud {
            commands.append(
                ReceiverCommand(
                    label: "$PMTK251 \(baud) baud", message: .pmtk(.baudRate(baud.bitsPerSecond)), effect: .baud(baud)))
        }
        return commands
    }
}

extension ReceiverConversation.Identity {
    /// How to configure this receiver: by its UBX protocol version, VALSET from 23 on.
    var interface: ReceiverInterface {
        switch self {
        case .ublox(let version): (version.protocolVersion ?? 0) >= 23 ? .ubloxValueSet : .ubloxLegacy
        case .mediaTek: .mediaTek
        }
    }

    /// The query it answered.
    public var query: String {
        switch self {
        case .ublox: "UBX-MON-VER"
        case .mediaTek: "$PMTK605"
        }
    }

    /// "u-blox NEO-M8N, SPG 3.01, protocol 18.00" or "MediaTek PA6H, AXN_2.31_3339_13101700".
    public var description: String {
        switch self {
        case .ublox(let version):
            var parts = ["u-blox " + (version.module ?? version.hardware)]
            if let firmware = version.extensions.first(where: { $0.hasPrefix("FWVER=") }) {
                parts.append(String(firmware.dropFirst(6)))
            } else {
                parts.append(version.software)
            }
            if let protocolVersion = version.extensions.first(where: { $0.hasPrefix("PROTVER") }) {
                parts.append("protocol " + protocolVersion.dropFirst(8))
            }
            return parts.joined(separator: ", ")
        case .mediaTek(let firmware):
            return "MediaTek " + [firmware.model, firmware.release].compactMap { $0 }.joined(separator: ", ")
        }
    }
}

/// Sentence types heard, and the receiver's own fix times (GGA and RMC), for the verification.
struct SentenceTypes {
    private(set) var types: Set<String> = []
    private var fixTimes: [Int] = []
    /// Counts types only from the second fix time on: a receiver finishes the epoch it was
    /// sending when a setting arrived, so that epoch still has the old sentences.
    private var waitsForNextEpoch: Bool

    init(fromNextEpoch: Bool = false) { waitsForNextEpoch = fromNextEpoch }

    mutating func add(_ bytes: [UInt8]) {
        var start: Int?
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "$") { start = index }
            if byte == UInt8(ascii: "*"), let first = start {
                add(sentence: Array(bytes[first..<index]))
                start = nil
            }
        }
    }

    /// One checksummed sentence, `$` first.
    mutating func add(sentence: [UInt8]) {
        guard sentence.count > 6, sentence[0] == UInt8(ascii: "$") else { return }
        let type = String(decoding: sentence[3..<6], as: UTF8.self)
        guard type.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return }
        if type == "GGA" || type == "RMC" {
            let fields = sentence.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            if fields.count > 1, let time = Self.milliseconds(String(decoding: fields[1], as: UTF8.self)),
                fixTimes.last != time
            {
                if !fixTimes.isEmpty { waitsForNextEpoch = false }
                fixTimes.append(time)
            }
        }
        if !waitsForNextEpoch { types.insert(type) }
    }

    /// hhmmss.sss as milliseconds of the day.
    static func milliseconds(_ text: String) -> Int? {
        guard text.count >= 6, let whole = Int(text.prefix(6)) else { return nil }
        let fraction = text.dropFirst(6)
        var millis = 0
        if fraction.hasPrefix("."), let value = Double("0" + fraction) { millis = Int((value * 1000).rounded()) }
        return (whole / 10000 * 3600 + whole / 100 % 100 * 60 + whole % 100) * 1000 + millis
    }

    /// Fixes a second, from the median spacing of distinct fix times.
    var fixRate: Double? {
        let distinct = fixTimes
        guard distinct.count >= 2 else { return nil }
        let gaps = zip(distinct.dropFirst(), distinct).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        guard !gaps.isEmpty else { return nil }
        return 1000 / Double(gaps[gaps.count / 2])
    }
}
