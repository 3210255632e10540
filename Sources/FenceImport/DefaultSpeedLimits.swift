/// The implicit `maxspeed` codes of the OSM wiki's "Default speed limits" page, in km/h (nil: the
/// code says there is no limit). Only codes whose value is one number nationwide are here; the
/// others are skipped as unknown codes (docs/fences.md, "Importing fences").
enum DefaultSpeedLimits {
    static let mph = 1.609344

    static let table: [String: Double?] = [
        "AT:urban": 50, "AT:rural": 100, "AT:trunk": 100, "AT:motorway": 130,
        "CH:urban": 50, "CH:rural": 80, "CH:trunk": 100, "CH:motorway": 120,
        "CZ:urban": 50, "CZ:rural": 90, "CZ:motorway": 130,
        "DE:urban": 50, "DE:rural": 100, "DE:motorway": Double?.none, "DE:living_street": 7, "DE:bicycle_road": 30,
        "DK:urban": 50, "DK:rural": 80, "DK:motorway": 130,
        "ES:urban": 50, "ES:rural": 90, "ES:motorway": 120,
        "FI:urban": 50, "FI:rural": 80, "FI:motorway": 120,
        "FR:urban": 50, "FR:rural": 80, "FR:motorway": 130,
        "GB:nsl_single": 60 * mph, "GB:nsl_dual": 70 * mph, "GB:motorway": 70 * mph,
        "HU:urban": 50, "HU:rural": 90, "HU:motorway": 130,
        "IT:urban": 50, "IT:rural": 90, "IT:motorway": 130,
        "NL:urban": 50, "NL:rural": 80,
        "PL:urban": 50, "PL:rural": 90, "PL:motorway": 140,
        "PT:urban": 50, "PT:rural": 90, "PT:motorway": 120,
        "RO:urban": 50, "RO:rural": 90, "RO:motorway": 130,
        "RU:urban": 60, "RU:rural": 90, "RU:motorway": 110,
    ]

    /// Countries whose zone codes (`GB:zone20`) count in miles per hour.
    static let mphCountries: Set<String> = ["GB", "US", "UK"]
}
