/// Fence data (names, ids, properties) comes from files and may hold terminal controls. Wherever it
/// meets a human line (the console sink, notifications, `check`, `visits`) it goes through here, so
/// that a fence file cannot drive the user's terminal: C0 controls (ESC, BEL, CR...), DEL and the
/// C1 controls U+0080-U+009F (U+009B is a one-character CSI in many terminals; U+009D an OSC) are
/// shown as `?`.
public enum HumanText {
    /// Whether `scalar` is a control character a terminal may act on.
    @inline(__always)
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with every control character shown as `?`.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }

    /// A distance as people read it: metres to a tenth below 10 km (`-100.0 m`, `1655.8 m`), else
    /// kilometres (`7147.1 km`): a seven-digit count of metres says nothing at a glance.
    public static func distance(_ metres: Double) -> String {
        guard metres.isFinite else { return "?" }
        if abs(metres) < 10_000 { return tenths(metres) + " m" }
        return tenths(metres / 1000) + " km"
    }

    static func tenths(_ value: Double) -> String {
        let scaled = WholeNumber.clamped((value * 10).rounded())
        return (scaled < 0 ? "-" : "") + "\(abs(scaled) / 10).\(abs(scaled) % 10)"
    }
}

extension HumanText {
    /// A duration as every human line writes it: `64 s` -> `1 min 4 s`, `2 h 5 min`; whole seconds,
    /// except below one second (`0.5 s`, a timeout), where rounding would say `1 s` or `0 s`.
    public static func duration(_ seconds: Double) -> String {
        if seconds > 0, seconds < 1, seconds != seconds.rounded() {
            return "\(Double(Int(seconds * 10 + 0.5)) / 10) s"
        }
        let total = WholeNumber.clamped(seconds.rounded())
        if total < 60 { return "\(total) s" }
        if total < 3600 { return "\(total / 60) min" + (total % 60 == 0 ? "" : " \(total % 60) s") }
        return "\(total / 3600) h" + (total % 3600 / 60 == 0 ? "" : " \(total % 3600 / 60) min")
    }

    /// A duration as people type one: a number and its unit, `90s`, `5m`, `2h`, `7d` (`report
    /// --since`, and every option that takes seconds); nil for anything else, a bare number too.
    public static func seconds(withUnit text: String) -> Double? {
        guard let unit = text.last, let number = Double(text.dropLast()), number.isFinite else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }
}
