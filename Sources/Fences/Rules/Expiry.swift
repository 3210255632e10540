import NMEA
import Presentation

/// `expires`: from that time on the fence is gone. An ISO 8601 time; without `Z` or an offset, in
/// the fence's `timezone`, else in the user's zone (`ExpiryTime.localClock`, read by the engine,
/// which knows that zone). The engine's part is Events' `ExpiresRule`.
public enum Expiry: FenceRuleDefinition {
    public static let properties = [RuleProperty("expires", .text)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        guard let expires = values[0]?.text else { return }
        guard let time = time(expires, zone: context.timezone) else {
            throw .notATime(property: properties[0].name, value: expires)
        }
        rules.expires = time
    }

    /// `2026-02-06T18:00:00Z`, `2026-02-06T19:00+01:00`, `2026-02-06 18:00:00.5`. Without `Z` or an
    /// offset the time is read in `zone`, and without a zone it is left to the user's.
    static func time(_ text: String, zone: ZoneOffsets?) -> ExpiryTime? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
            let date = CivilDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)), date.isValid
        else { return nil }
        var clockEnd = bytes.count
        var offsetSeconds: Int64?
        if bytes.last == UInt8(ascii: "Z") {
            clockEnd -= 1
            offsetSeconds = 0
        } else if let sign = bytes[11...].lastIndex(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }) {
            let digits = bytes[(sign + 1)...].filter { $0 != UInt8(ascii: ":") }
            guard digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int64(String(decoding: digits, as: UTF8.self)), value % 100 < 60, value / 100 < 24
            else { return nil }
            let magnitude = (value / 100) * 3600 + (value % 100) * 60
            offsetSeconds = bytes[sign] == UInt8(ascii: "-") ? -magnitude : magnitude
            clockEnd = sign
        }
        let clock = String(decoding: bytes[11..<clockEnd], as: UTF8.self).split(
            separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(clock.count), clock[0].count == 2, clock[1].count == 2,
            let hours = Int(clock[0]), let minutes = Int(clock[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        var seconds = 0.0
        if clock.count == 3 {
            guard clock[2].count >= 2, let value = Double(clock[2]), value >= 0, value < 60 else { return nil }
            seconds = value
        }
        let milliseconds = (hours * 3600 + minutes * 60) * 1000 + Int((seconds * 1000).rounded())
        let local = UTCTime(date: date, timeOfDay: TimeOfDay(milliseconds: milliseconds)).millisecondsSinceEpoch
        if let offsetSeconds { return .instant(local - offsetSeconds * 1000) }
        guard let zone else { return .localClock(local) }
        return .instant(ExpiryTime.localClock(local).milliseconds(localZone: zone))
    }
}

/// When a fence is gone: an instant, or a clock time with no zone of its own.
public enum ExpiryTime: Sendable, Equatable {
    /// Milliseconds since the epoch.
    case instant(Int64)
    /// A clock time written without `Z`, an offset or the fence's `timezone`, as milliseconds since
    /// the epoch had it been UTC: read in the user's zone, which the file does not know.
    case localClock(Int64)

    /// Milliseconds since the epoch, a clock time read in `localZone`.
    public func milliseconds(localZone: ZoneOffsets) -> Int64 {
        switch self {
        case .instant(let milliseconds): return milliseconds
        case .localClock(let local):
            // The zone's offset at the guessed instant, checked once more (a time near a change of
            // offset).
            let guess = local / 1000 - Int64(localZone.offset(atSeconds: local / 1000))
            let offset = Int64(localZone.offset(atSeconds: guess))
            return local - offset * 1000
        }
    }
}
