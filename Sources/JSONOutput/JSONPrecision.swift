/// How many decimals each kind of number is printed with (docs/formats.md): as many as the value
/// carries, no more, so that no output prints the binary noise of a conversion
/// (`60.000170000000004`).
public enum JSONPrecision {
    /// Latitude and longitude: 1e-9 degree (0.1 mm), as gpsd prints them. Lossless for NMEA: a
    /// receiver's finest position is 7 decimals of a minute (1.7e-9 degree), and a 1e-9 step rounds
    /// back to the same minutes, so every output (JSON, MQTT, exports, human lines, hook variables)
    /// carries the position as the receiver sent it.
    public static let coordinate = 9
    /// Distances, altitudes, accuracies, radii: 1 cm.
    public static let metres = 2
    /// Speeds in m/s (and knots, km/h): 1 mm/s.
    public static let speed = 3
    /// Angles other than positions (track, magnetic variation, elevation): 0.01 degree.
    public static let degrees = 2
    /// Dilutions of precision (HDOP, PDOP, VDOP), which receivers send with one or two decimals.
    public static let dop = 2
    /// Durations and times to come, in seconds: 1 ms, the resolution of every time the tool keeps.
    public static let seconds = 3
}

/// `number` as the one number formatter prints it (for the outputs that are not JSON but print the
/// same numbers: the GPX export, the human lines, hook variables).
public func formatted(_ number: Double, decimals: Int) -> String {
    let buffer = JSONBuffer(capacity: 32)
    buffer.writeNumber(number, decimals: decimals)
    return buffer.string
}

/// One JSON object built field by field and handed on as text: for the outputs that are printed
/// rarely (visits, devices, status), on the same `JSONBuffer` as every other output. Unknown values
/// are written as `null`, never as zero.
public struct JSONLine {
    private let buffer = JSONBuffer(capacity: 256)

    public init() { buffer.beginObject() }

    public mutating func add(_ name: String, _ value: Double?, decimals: Int = JSONPrecision.seconds) {
        buffer.key(name)
        buffer.value(value, decimals: decimals)
    }

    public mutating func add(_ name: String, _ value: Int?) {
        buffer.key(name)
        buffer.value(value)
    }

    public mutating func add(_ name: String, _ value: Bool) {
        buffer.key(name)
        buffer.value(value)
    }

    public mutating func add(_ name: String, _ value: String?) {
        buffer.key(name)
        buffer.value(value)
    }

    /// A member whose value is already JSON text.
    public mutating func addRaw(_ name: String, json: String) {
        buffer.key(name)
        buffer.beginRawValue()
        buffer.append(raw: json)
    }

    /// A member whose value is an array of values that are already JSON text (objects written by
    /// other `JSONLine`s, fence ids).
    public mutating func addArray(_ name: String, json elements: [String]) {
        buffer.key(name)
        Self.write(elements, to: buffer)
    }

    /// A member whose value is an array of strings.
    public mutating func addArray(_ name: String, strings: [String]) {
        buffer.key(name)
        buffer.beginArray()
        for text in strings { buffer.value(text) }
        buffer.endArray()
    }

    /// A member whose value is an array of integers.
    public mutating func addArray(_ name: String, _ numbers: [Int]) {
        buffer.key(name)
        buffer.beginArray()
        for number in numbers { buffer.value(number) }
        buffer.endArray()
    }

    /// An array of values that are already JSON text, as text.
    public static func array(json elements: [String]) -> String {
        let buffer = JSONBuffer(capacity: elements.reduce(16) { $0 + $1.utf8.count + 1 })
        write(elements, to: buffer)
        return buffer.string
    }

    private static func write(_ elements: [String], to buffer: JSONBuffer) {
        buffer.beginArray()
        for element in elements {
            buffer.beginRawValue()
            buffer.append(raw: element)
        }
        buffer.endArray()
    }

    /// The object's text (the object is closed on a copy, so more members can still be added).
    public var string: String { buffer.string + "}" }

    /// A JSON string literal with the escapes RFC 8259 requires.
    public static func quoted(_ value: String) -> String {
        let buffer = JSONBuffer(capacity: value.utf8.count + 8)
        buffer.writeEscaped(value)
        return buffer.string
    }
}
