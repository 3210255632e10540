/// MediaTek's `$PMTK` commands and answers (docs/hardware.md). A command is an NMEA sentence with a
/// three-digit packet type; the receiver answers `$PMTK001,<type>,<flag>` (0 invalid, 1 not
/// supported, 2 valid but failed, 3 done), and `$PMTK705,...` to a firmware query (605).
public struct PMTKCommand: Equatable, Sendable {
    public var packetType: Int
    public var fields: [String]

    public init(packetType: Int, fields: [String] = []) {
        self.packetType = packetType
        self.fields = fields
    }

    /// The sentence with its checksum and CR LF.
    public var sentence: String {
        var body = "PMTK" + threeDigits(packetType)
        for field in fields { body += "," + field }
        let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return "$" + body + "*" + hex(sum) + "\r\n"
    }

    /// PMTK220: the interval between position outputs, in milliseconds (100 = 10 Hz).
    public static func outputInterval(milliseconds: Int) -> PMTKCommand {
        PMTKCommand(packetType: 220, fields: [String(milliseconds)])
    }

    /// PMTK300: the interval between position fixes. Without it, PMTK220 repeats the same fix.
    public static func fixInterval(milliseconds: Int) -> PMTKCommand {
        PMTKCommand(packetType: 300, fields: [String(milliseconds), "0", "0", "0", "0"])
    }

    /// PMTK314: how often each sentence is sent (every n-th fix; 0 off). Field order: GLL, RMC, VTG,
    /// GGA, GSA, GSV, GRS, GST, five reserved, MALM, MEPH, MDGP, MDBG, ZDA, MCHN.
    public static func sentences(_ enabled: Set<String>) -> PMTKCommand {
        var fields = [String](repeating: "0", count: ConfigurableSentence.pmtkFieldCount)
        for row in ConfigurableSentence.table where enabled.contains(row.name) {
            if let field = row.pmtkField { fields[field] = "1" }
        }
        return PMTKCommand(packetType: 314, fields: fields)
    }

    /// The sentences PMTK314 can turn on.
    public static let configurableSentences = Set(ConfigurableSentence.table.filter { $0.pmtkField != nil }.map(\.name))

    /// PMTK251: the UART's baud rate. MediaTek sends no PMTK001 for it: the answer is sentences at
    /// the new rate.
    public static func baudRate(_ rate: Int) -> PMTKCommand { PMTKCommand(packetType: 251, fields: [String(rate)]) }

    /// PMTK605: query the firmware release; answered by PMTK705.
    public static let firmwareQuery = PMTKCommand(packetType: 605)

    /// Parses `$PMTKnnn,...*hh` (text between `$` and `*`, or the whole sentence).
    public init?(sentence: some StringProtocol) {
        var text = Substring(sentence)
        if text.hasPrefix("$") { text = text.dropFirst() }
        if let star = text.firstIndex(of: "*") { text = text[..<star] }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let head = parts.first, head.hasPrefix("PMTK"), let type = Int(head.dropFirst(4)), head.count == 7 else {
            return nil
        }
        self.init(packetType: type, fields: parts.dropFirst().map(String.init))
    }
}

/// `$PMTK001,<type>,<flag>`: MediaTek's acknowledgement of one command.
public struct PMTKAcknowledgement: Equatable, Sendable {
    public enum Flag: Int, Sendable {
        case invalid = 0
        case unsupported = 1
        case failed = 2
        case succeeded = 3
    }

    public var packetType: Int
    public var flag: Flag

    public init(packetType: Int, flag: Flag) {
        self.packetType = packetType
        self.flag = flag
    }

    public init?(_ command: PMTKCommand) {
        guard command.packetType == 1, command.fields.count >= 2, let type = Int(command.fields[0]),
            let value = Int(command.fields[1]), let flag = Flag(rawValue: value)
        else { return nil }
        self.init(packetType: type, flag: flag)
    }

    public var command: PMTKCommand {
        PMTKCommand(packetType: 1, fields: [String(packetType), String(flag.rawValue)])
    }
}

/// `$PMTK705,<release>,<build>,<model>,...`: the firmware a MediaTek receiver runs.
public struct PMTKFirmware: Equatable, Sendable {
    public var release: String
    public var model: String?

    public init(release: String, model: String?) {
        self.release = release
        self.model = model
    }

    public init?(_ command: PMTKCommand) {
        guard command.packetType == 705, let release = command.fields.first, !release.isEmpty else { return nil }
        self.init(
            release: release, model: command.fields.count > 2 && !command.fields[2].isEmpty ? command.fields[2] : nil)
    }
}

private func threeDigits(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}
