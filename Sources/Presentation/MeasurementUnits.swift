import JSONOutput

/// The units people read and hear (`--units`, docs/running.md "Time and units"): speeds, distances
/// and heights on the console, in `status`, the live view, the report and spoken alerts. Metric
/// unless asked. Machines (JSON, MQTT, webhooks) keep metres and metres per second.
public enum MeasurementUnits: String, Sendable, CaseIterable {
    /// km/h, m, km.
    case metric
    /// mph, ft, mi.
    case imperial
    /// kn, m, nm.
    case nautical

    static let metresPerMile = 1609.344
    static let metresPerNauticalMile = 1852.0
    static let metresPerFoot = 0.3048
    static let metresPerInch = 0.0254

    /// A position as people of this system read it: decimal degrees (`43.4999455, 16.399904833`),
    /// or for `nautical` degrees and decimal minutes as charts and a skipper's log write them
    /// (`43°29.997'N 016°23.994'E`, a thousandth of a minute: under 2 m).
    public func position(lat: Double, lon: Double) -> String {
        switch self {
        case .metric, .imperial:
            return formatted(lat, decimals: JSONPrecision.coordinate) + ", "
                + formatted(lon, decimals: JSONPrecision.coordinate)
        case .nautical:
            return Self.degreesAndMinutes(lat, width: 2, hemispheres: ("N", "S")) + " "
                + Self.degreesAndMinutes(lon, width: 3, hemispheres: ("E", "W"))
        }
    }

    /// `43°29.997'N`: whole degrees (zero-padded to `width`), minutes to a thousandth.
    static func degreesAndMinutes(_ value: Double, width: Int, hemispheres: (Character, Character)) -> String {
        let thousandths = Int((abs(value) * 60_000).rounded())
        let degrees = thousandths / 60_000
        let minutes = thousandths % 60_000
        let degreeText = String(degrees)
        let minuteText = String(minutes / 1000)
        let fraction = String(minutes % 1000)
        return String(repeating: "0", count: max(0, width - degreeText.count)) + degreeText + "°"
            + String(repeating: "0", count: 2 - minuteText.count) + minuteText + "."
            + String(repeating: "0", count: 3 - fraction.count) + fraction + "'"
            + String(value < 0 ? hemispheres.1 : hemispheres.0)
    }

    /// The speed in this system's unit, and the unit.
    public func speedValue(_ metresPerSecond: Double) -> (value: Double, unit: String) {
        switch self {
        case .metric: (metresPerSecond * 3.6, "km/h")
        case .imperial: (metresPerSecond * 3600 / Self.metresPerMile, "mph")
        case .nautical: (metresPerSecond * 3600 / Self.metresPerNauticalMile, "kn")
        }
    }

    /// `27 km/h`, `17 mph`, `14 kn`; a tenth below ten (`7.5 kn`). A speed limit is `.down`, the
    /// vehicle's speed against one `.up` (`MeasureRounding`).
    public func speed(_ metresPerSecond: Double, rounded rounding: MeasureRounding = .nearest) -> String {
        let (value, unit) = speedValue(metresPerSecond)
        return Self.number(value, rounding) + " " + unit
    }

    /// `62 km/h in a 50 zone`: the vehicle's speed (rounded up) and the limit it is above (rounded
    /// down), so the line never shows a speed at or below the limit it broke, nor reads as the
    /// excess.
    public func speeding(_ metresPerSecond: Double, limit: Double) -> String {
        speed(metresPerSecond, rounded: .up) + " in a " + Self.number(speedValue(limit).value, .down) + " zone"
    }

    /// A distance at a glance, to a tenth: metric as `HumanText.distance` (`1655.8 m`, `7147.1 km`);
    /// imperial in feet below 1000 ft, else miles (`850.0 ft`, `1.2 mi`); nautical in metres below
    /// a nautical mile, else nautical miles (`940.0 m`, `3.4 nm`).
    public func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "?" }
        switch self {
        case .metric:
            return HumanText.distance(metres)
        case .imperial:
            let feet = metres / Self.metresPerFoot
            if abs(feet) < 1000 { return HumanText.tenths(feet) + " ft" }
            return HumanText.tenths(metres / Self.metresPerMile) + " mi"
        case .nautical:
            if abs(metres) < Self.metresPerNauticalMile { return HumanText.tenths(metres) + " m" }
            return HumanText.tenths(metres / Self.metresPerNauticalMile) + " nm"
        }
    }

    /// A distance ahead, whole: `1588 m`, `950 ft`, `1.25 mi`, `1.05 nm`.
    public func distanceAhead(_ metres: Double) -> String {
        guard metres.isFinite else { return "?" }
        switch self {
        case .metric:
            return "\(WholeNumber.clamped(metres.rounded())) m"
        case .imperial:
            let feet = metres / Self.metresPerFoot
            if feet < 1000 { return "\(WholeNumber.clamped(feet.rounded())) ft" }
            return Self.hundredths(metres / Self.metresPerMile) + " mi"
        case .nautical:
            if metres < Self.metresPerNauticalMile { return "\(WholeNumber.clamped(metres.rounded())) m" }
            return Self.hundredths(metres / Self.metresPerNauticalMile) + " nm"
        }
    }

    /// A day's travel: `850 m`, `12.08 km` | `900 ft`, `7.51 mi` | `850 m`, `6.52 nm`.
    public func travelled(_ metres: Double) -> String {
        switch self {
        case .metric:
            metres >= 1000 ? Self.hundredths(metres / 1000) + " km" : "\(WholeNumber.clamped(metres.rounded())) m"
        case .imperial:
            metres >= Self.metresPerMile / 10
                ? Self.hundredths(metres / Self.metresPerMile) + " mi"
                : "\(WholeNumber.clamped((metres / Self.metresPerFoot).rounded())) ft"
        case .nautical:
            metres >= Self.metresPerNauticalMile / 10
                ? Self.hundredths(metres / Self.metresPerNauticalMile) + " nm"
                : "\(WholeNumber.clamped(metres.rounded())) m"
        }
    }

    /// A height (or a width, a length) as signs write it: `3.2 m`, `4.05 m`, or `10'6"` in
    /// imperial; a limit rounded `.down` (a bridge of 3.2 m is `10'5"`, never `10'6"`), the
    /// vehicle's own `.up`.
    public func height(_ metres: Double, rounded rounding: MeasureRounding) -> String {
        switch self {
        case .metric, .nautical:
            return formatted(rounding.whole(metres * 100) / 100, decimals: 2) + " m"
        case .imperial:
            let inches = WholeNumber.clamped(rounding.whole(metres / Self.metresPerInch))
            return "\(inches / 12)'\(inches % 12)\""
        }
    }

    /// `23 kilometres an hour`, `14 miles an hour`, `12 knots`: whole numbers, as a voice says them;
    /// a limit `.down`, the vehicle's speed against one `.up`.
    public func spokenSpeed(_ metresPerSecond: Double, rounded rounding: MeasureRounding = .nearest) -> String {
        let value = WholeNumber.clamped(rounding.whole(speedValue(metresPerSecond).value))
        switch self {
        case .metric: return "\(value) kilometres an hour"
        case .imperial: return "\(value) miles an hour"
        case .nautical: return "\(value) knot\(value == 1 ? "" : "s")"
        }
    }

    /// `80 metres`, `1.6 kilometres` | `300 feet`, `1.2 miles` | `80 metres`, `1.2 nautical miles`:
    /// rounded as a voice would say them.
    public func spokenDistance(_ metres: Double) -> String {
        switch self {
        case .metric:
            if metres < 1000 { return "\(max(10, WholeNumber.clamped((metres / 10).rounded()) * 10)) metres" }
            return Self.spokenTenths(metres / 1000, "kilometres")
        case .imperial:
            let feet = metres / Self.metresPerFoot
            if feet < 1000 { return "\(max(50, WholeNumber.clamped((feet / 50).rounded()) * 50)) feet" }
            return Self.spokenTenths(metres / Self.metresPerMile, "miles")
        case .nautical:
            if metres < Self.metresPerNauticalMile {
                return "\(max(10, WholeNumber.clamped((metres / 10).rounded()) * 10)) metres"
            }
            return Self.spokenTenths(metres / Self.metresPerNauticalMile, "nautical miles")
        }
    }

    /// `3 metres 20`, `4 metres` | `10 feet 6`, `11 feet`: a clearance, as road signs are read out;
    /// a limit `.down`, the vehicle's own `.up`.
    public func spokenHeight(_ metres: Double, rounded rounding: MeasureRounding) -> String {
        switch self {
        case .metric, .nautical:
            let centimetres = WholeNumber.clamped(rounding.whole(metres * 100))
            let rest = centimetres % 100
            guard rest != 0 else { return "\(centimetres / 100) metres" }
            return "\(centimetres / 100) metres " + (rest < 10 ? "0\(rest)" : "\(rest)")
        case .imperial:
            let inches = WholeNumber.clamped(rounding.whole(metres / Self.metresPerInch))
            let feet = "\(inches / 12) \(inches / 12 == 1 ? "foot" : "feet")"
            return inches % 12 == 0 ? feet : feet + " \(inches % 12)"
        }
    }

    /// Whole above ten, a tenth below: `27`, `7.5`.
    static func number(_ value: Double, _ rounding: MeasureRounding = .nearest) -> String {
        let tenths = rounding.whole(value * 10) / 10
        return abs(tenths) < 10 ? HumanText.tenths(tenths) : "\(WholeNumber.clamped(rounding.whole(value)))"
    }

    static func hundredths(_ value: Double) -> String {
        let scaled = WholeNumber.clamped((value * 100).rounded())
        let fraction = abs(scaled) % 100
        return (scaled < 0 ? "-" : "") + "\(abs(scaled) / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    static func spokenTenths(_ value: Double, _ unit: String) -> String {
        let tenths = WholeNumber.clamped((value * 10).rounded())
        let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return number + " " + (tenths == 10 ? String(unit.dropLast()) : unit)
    }
}

/// Which way a measure shown to a person is rounded. A limit (a clearance, a weight or speed
/// limit) is rounded down, so that a driver is never told there is more room than the sign gives;
/// the vehicle's own measure (its height, its speed against a limit) up, so that it never looks
/// smaller than it is; anything else to the nearest. A value within a thousandth of a step of a
/// whole step is that step: a clearance written `10'6"` and kept in metres is still `10'6"`.
public enum MeasureRounding: Sendable {
    case down
    case up
    case nearest

    /// `value` (in steps shown: centimetres, inches, km/h) as a whole number of steps.
    public func whole(_ value: Double) -> Double {
        let tolerance = 0.001
        switch self {
        case .down: return (value + tolerance).rounded(.down)
        case .up: return (value - tolerance).rounded(.up)
        case .nearest: return value.rounded()
        }
    }
}
