import JSONInput
import JSONOutput
import NMEA

/// A fence id as the file gave it: a JSON number (kept as written, so it prints back unchanged) or a
/// string. Without one, the loaders derive one from the shape and name (`FenceSetBuilder.derivedID`).
public enum FenceID: Hashable, Sendable, CustomStringConvertible {
    case number(String)
    case string(String)

    /// The id as JSON: numbers as written, strings quoted and escaped.
    public var json: String {
        switch self {
        case .number(let text): return text
        case .string(let s): return JSONLine.quoted(s)
        }
    }

    public var description: String { json }

    /// The id as people (and hook environments, topics, report pages) read it: numbers as
    /// written, strings without quotes or escapes. The one place an id becomes plain text.
    public var text: String {
        switch self {
        case .number(let text), .string(let text): text
        }
    }

    /// Reads back the JSON form (`json`) that the state file keeps: a string literal or a number.
    public init?(json text: String) {
        var copy = text
        let id = copy.withUTF8 { bytes -> FenceID? in
            var scanner = JSONScanner(bytes)
            guard let id = try? scanner.fenceID(), scanner.peek() == 0 else { return nil }
            return id
        }
        guard let id else { return nil }
        self = id
    }

    /// Key for duplicate detection: numbers compare by value (`1` and `1.0` are the same id).
    package var key: Key {
        switch self {
        case .number(let text): return .number(Double(text) ?? .nan)
        case .string(let s): return .string(s)
        }
    }

    package enum Key: Hashable {
        case number(Double)
        case string(String)
    }
}
