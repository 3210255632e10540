/// The fix quality as Home Assistant's `enum` sensor shows it: GGA's quality number as a word, one
/// of `allCases` (the sensor's `options`), so automations compare words, not NMEA codes.
public enum HomeAssistantFixQuality: String, CaseIterable, Sendable {
    case noFix = "no_fix"
    case gps
    case dgps
    case pps
    case rtkFixed = "rtk_fixed"
    case rtkFloat = "rtk_float"
    case deadReckoning = "dead_reckoning"
    case manual
    case simulation
    case sbas

    /// GGA's quality field (0...9, NMEA 0183 4.1); nil for any other number.
    public init?(gga quality: Int) {
        let all = Self.allCases
        guard all.indices.contains(quality) else { return nil }
        self = all[quality]
    }
}
