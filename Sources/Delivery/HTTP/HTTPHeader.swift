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
            throw HTTPHeaderError(option: option, cause: .noColon(argument: argument))
        }
        let name = argument[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else {
            throw HTTPHeaderError(option: option, cause: .notAName(argument: argument, name: name))
        }
        var value = argument[argument.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("@@") {
            value.removeFirst()
        } else if value.hasPrefix("@") {
            let path = String(value.dropFirst())
            switch secrets.firstLine(of: path) {
            case .success(let line): value = line.trimmingCharacters(in: .whitespaces)
            case .failure(let error): throw HTTPHeaderError(option: option, cause: .unreadableFile(name: name, error))
            }
        }
        // A line break would end the header and start another one (header injection).
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }) else {
            throw HTTPHeaderError(option: option, cause: .controlCharacter(name: name))
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

/// A header option that is not one: the option (`--sync-header`, `--webhook-header`) and what is
/// wrong with the header as given. `description` is its one rendering in words.
public struct HTTPHeaderError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Cause: Sendable, Equatable {
        /// No `:` between a name and a value.
        case noColon(argument: String)
        /// The part before the colon is not an RFC 9110 token.
        case notAName(argument: String, name: String)
        /// `NAME: @FILE` whose file cannot be read as a secret.
        case unreadableFile(name: String, SecretFileError)
        /// A control character in the value (a line break would start another header).
        case controlCharacter(name: String)
    }

    public let option: String
    public let cause: Cause

    public init(option: String, cause: Cause) {
        self.option = option
        self.cause = cause
    }

    public var description: String {
        switch cause {
        case .noColon(let argument): "\(option) '\(argument)': expected 'NAME: VALUE' or 'NAME: @FILE'"
        case .notAName(let argument, let name): "\(option) '\(argument)': '\(name)' is not a header name"
        case .unreadableFile(let name, let error): "\(option) \(name): \(error)"
        case .controlCharacter(let name): "\(option) \(name): the value holds a control character"
        }
    }
}
