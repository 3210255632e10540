/// The NMEA sentences a receiver can be told to send or not, with each protocol's name for them,
/// in one table (docs/hardware.md): the UBX-CFG-MSG id (class 0xF0), the CFG-VALSET key of its
/// output rate on UART 1 (CFG-MSGOUT-NMEA_ID_xxx_UART1), and its field in `$PMTK314`.
public struct ConfigurableSentence: Sendable {
    public let name: String
    /// UBX-CFG-MSG message id in class 0xF0; nil when u-blox has no such standard message.
    public let ubxMessageID: UInt8?
    public let valueSetKey: UInt32?
    /// Field index in `$PMTK314`; nil when MediaTek cannot send it.
    public let pmtkField: Int?

    public static let table: [ConfigurableSentence] = [
        ConfigurableSentence(name: "GGA", ubxMessageID: 0x00, valueSetKey: 0x2091_00BB, pmtkField: 3),
        ConfigurableSentence(name: "GLL", ubxMessageID: 0x01, valueSetKey: 0x2091_00CA, pmtkField: 0),
        ConfigurableSentence(name: "GSA", ubxMessageID: 0x02, valueSetKey: 0x2091_00C0, pmtkField: 4),
        ConfigurableSentence(name: "GSV", ubxMessageID: 0x03, valueSetKey: 0x2091_00C5, pmtkField: 5),
        ConfigurableSentence(name: "RMC", ubxMessageID: 0x04, valueSetKey: 0x2091_00AC, pmtkField: 1),
        ConfigurableSentence(name: "VTG", ubxMessageID: 0x05, valueSetKey: 0x2091_00B1, pmtkField: 2),
        ConfigurableSentence(name: "GRS", ubxMessageID: 0x06, valueSetKey: 0x2091_00CF, pmtkField: 6),
        ConfigurableSentence(name: "GST", ubxMessageID: 0x07, valueSetKey: 0x2091_00D4, pmtkField: 7),
        ConfigurableSentence(name: "ZDA", ubxMessageID: 0x08, valueSetKey: 0x2091_00D9, pmtkField: 17),
        ConfigurableSentence(name: "GNS", ubxMessageID: 0x0D, valueSetKey: 0x2091_00B6, pmtkField: nil),
    ]

    /// The row of a sentence type (`GGA`).
    public static func named(_ name: String) -> ConfigurableSentence? { table.first { $0.name == name } }

    /// The row of a UBX-CFG-MSG id.
    public static func ubx(_ id: UInt8) -> ConfigurableSentence? { table.first { $0.ubxMessageID == id } }

    /// The row of a CFG-VALSET key.
    public static func valueSet(_ key: UInt32) -> ConfigurableSentence? { table.first { $0.valueSetKey == key } }

    /// Fields in `$PMTK314`: the eight sentence fields, five reserved, four MediaTek-only, ZDA, MCHN.
    public static let pmtkFieldCount = 19
}
