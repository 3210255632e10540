/// Builds NMEA 0183 sentences: the `$`, the body, the `*HH` checksum and CR LF, with fields
/// formatted as receivers write them. For the simulator and for tests; no Foundation, so the
/// number formatting is done here by hand.
public enum SentenceWriter {
    /// `$` + body + `*` + checksum + CR LF, as bytes ready for the wire.
    public static func sentence(_ body: String) -> [UInt8] {
        var bytes: [UInt8] = [ASCII.dollar]
        bytes.append(contentsOf: body.utf8)
        let sum = checksum(body)
        bytes.append(ASCII.star)
        bytes.append(hexDigit(sum >> 4))
        bytes.append(hexDigit(sum & 0x0F))
        bytes.append(ASCII.cr)
        bytes.append(ASCII.lf)
        return bytes
    }

    /// XOR of every byte between `$` and `*`.
    public static func checksum(_ body: String) -> UInt8 {
        body.utf8.reduce(0, ^)
    }

    /// `ddmm.mmmmm` and `N`/`S`: five decimals of a minute are 1.9 cm.
    public static func latitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 2), degrees < 0 ? "S" : "N")
    }

    /// `dddmm.mmmmm` and `E`/`W`.
    public static func longitude(_ degrees: Double) -> (String, String) {
        (angle(abs(degrees), degreeDigits: 3), degrees < 0 ? "W" : "E")
    }

    /// `hhmmss.ss`.
    public static func time(_ time: TimeOfDay) -> String {
        let centiseconds = (time.milliseconds + 5) / 10
        let seconds = centiseconds / 100
        return pad(seconds / 3600 % 24, 2) + pad(seconds / 60 % 60, 2) + pad(seconds % 60, 2) + "."
            + pad(centiseconds % 100, 2)
    }

    /// `ddmmyy`.
    public static func date(_ date: CivilDate) -> String {
        pad(date.day, 2) + pad(date.month, 2) + pad(date.year % 100, 2)
    }

    /// `value` with exactly `places` decimals, rounded half away from zero.
    public static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let divisor = Int64(scale)
        let whole = scaled / divisor
        let fraction = scaled % divisor
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return places == 0 ? sign + String(whole) : sign + String(whole) + "." + pad(Int(fraction), places)
    }

    static func angle(_ degrees: Double, degreeDigits: Int) -> String {
        // Round once, in units of 1e-5 minute, so that 59.999996' carries into the next degree.
        let units = Int64((degrees * 60 * 100_000).rounded())
        let whole = units / (60 * 100_000)
        let minuteUnits = units % (60 * 100_000)
        return pad(Int(whole), degreeDigits) + pad(Int(minuteUnits / 100_000), 2) + "."
            + pad(Int(minuteUnits % 100_000), 5)
    }

    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? 0x30 + value : 0x41 + value - 10
    }
}
