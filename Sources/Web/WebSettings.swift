import Delivery
import Fences
import NMEA
import Platform
import Presentation

/// What `run --web [ADDR:]PORT` serves and to whom (docs/running.md, "The page on a phone").
public struct WebSettings: Sendable {
    /// The address to listen on, as given or `127.0.0.1`.
    public var host: String
    public var port: Int
    /// HTTP basic's password (any user name); nil: no password, which only loopback allows.
    public var password: String?
    /// The zone and units the page shows (the browser's own zone when it has one).
    public var format = HumanFormat()

    /// Whether `host` reaches this machine only.
    public var isLoopback: Bool { Self.isLoopback(host) }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `[ADDR:]PORT` and the password file read and checked together: any address but loopback
    /// needs a password. Each problem names the option and what to give instead. A relative
    /// password file is a systemd credential's name when the service has credentials (`secrets`).
    public static func parse(
        _ text: String, passwordFile: String?, secrets: SecretSources = .environment
    ) throws(WebSettingsError) -> WebSettings {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else {
                throw WebSettingsError.noAddress(given: text)
            }
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw WebSettingsError.badPort(given: text)
        }
        var settings = WebSettings(host: host, port: port, password: nil)
        if let passwordFile {
            switch secrets.firstLine(of: passwordFile) {
            case .success(let password) where !password.isEmpty: settings.password = password
            case .success: throw WebSettingsError.emptyPassword(file: passwordFile)
            case .failure(let error): throw WebSettingsError.unreadablePassword(error)
            }
        }
        if !settings.isLoopback && settings.password == nil {
            throw WebSettingsError.openWithoutPassword(given: text, host: host)
        }
        return settings
    }
}

/// A `--web` or `--web-password-file` that cannot be used: bad input. `description` is its one
/// rendering in words; `given`: `--web` as given.
public enum WebSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `:PORT` with nothing before the colon.
    case noAddress(given: String)
    /// A port that is not a number from 1 to 65535.
    case badPort(given: String)
    /// The password file's first line is empty.
    case emptyPassword(file: String)
    /// The password file cannot be read as a secret.
    case unreadablePassword(SecretFileError)
    /// An address other machines reach, without a password.
    case openWithoutPassword(given: String, host: String)

    public var description: String {
        switch self {
        case .noAddress(let given): "--web \(given): give an address before ':' or only the port"
        case .badPort(let given):
            "--web \(given): the port must be a number from 1 to 65535 ([ADDRESS:]PORT, e.g. 8080 or 0.0.0.0:8080)"
        case .emptyPassword(let file): "--web-password-file \(file): the file's first line is empty"
        case .unreadablePassword(let error): "--web-password-file: \(error)"
        case .openWithoutPassword(let given, let host):
            "--web \(given): only this machine (127.0.0.1) may reach the page without a password; "
                + "give --web-password-file FILE (a private file holding the password) to serve \(host)"
        }
    }
}
