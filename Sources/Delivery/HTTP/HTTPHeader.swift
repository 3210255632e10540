import Foundation
import Platform

/// One extra request header, as `--webhook-header` and `--sync-header` take it (docs/running.md):
/// `NAME: VALUE`, or `NAME: @FILE` for a value read from the first line of FILE, so that a token
/// never appears in the process list (`ps` shows the path, not the secret). FILE must be private
/// (`SecretFile`); a relative FILE is a systemd credential's name when the process has
/// credentials (`SecretSources.path`). A value that really begins with `@` is written `@@...`.
public struct HTTPHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `argument`, reading the file it names; `option` names the flag in messages.
    public static func parse(
        _ argument: String, option: String, secrets: SecretSources = SecretSources()
    ) throws(HTTPHeaderError) -> HTTPHeader {
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
            switch secrets.firstLine(of: path) {
            case .success(let line): value = line.trimmingCharacters(in: .whitespaces)
            case .failure(let error): throw HTTPHeaderError(message: "\(option) \(name): \(error)")
            }
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
