import Foundation

/// One extra request header, as `--webhook-header` and `--sync-header` take it (docs/running.md):
/// `NAME: VALUE`, or `NAME: @FILE` for a value read from the first line of FILE, so that a token
/// never appears in the process list (`ps` shows the path, not the secret). A value that really
/// begins with `@` is written `@@...`.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `argument`, reading the file it names; `option` names the flag in messages.
    public static func parse(_ argument: String, option: String) throws(HTTPHeaderError) -> HTTPHeader {
        guard let colon = argument.firstIndex(of: ":") else {
            throw HTTPHeaderError(message: "\(option) '\(argument)': expected 'NAME: VALUE' or 'NAME: @FILE'")
        }
        let name = argument[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else {
            throw HTTPHeaderError(message: "\(option) '\(argument)': '\(name)' is not a header name")
        }
        var value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("@@") {
            value.removeFirst()
        } else if value.hasPrefix("@") {
            let path = String(value.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw HTTPHeaderError(message: "\(option) \(name): cannot read the value file '\(path)'")
            }
            let text = String(decoding: data, as: UTF8.self)
            // `isNewline`: "\r\n" is one Character in Swift, which a split at "\n" would not see.
            value = String(
                text.split(maxSplits: 1, omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
            )
            .trimmingCharacters(in: .whitespaces)
        }
        // A line break would end the header and start another one (header injection).
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw HTTPHeaderError(message: "\(option) \(name): the value holds a control character")
        }
        return HTTPHeader(name: name, value: value)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII else { return false }
        if CharacterSet.alphanumerics.contains(scalar) { return true }
        return "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }
}

public struct HTTPHeaderError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}
