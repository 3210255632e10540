/// `gpsd://[HOST][:PORT][/DEVICE]` (docs/hardware.md): where a gpsd listens, and optionally which of
/// its devices to watch. The defaults are gpsd's own: `localhost`, port 2947, every device.
public struct GpsdAddress: Sendable, Equatable, CustomStringConvertible {
    public static let scheme = "gpsd://"
    public static let defaultPort = 2947

    public var host: String
    public var port: Int
    /// The device path as gpsd names it (`/dev/ttyACM0`); nil watches every device.
    public var device: String?

    public init(host: String = "localhost", port: Int = GpsdAddress.defaultPort, device: String? = nil) {
        self.host = host
        self.port = port
        self.device = device
    }

    /// Parses the URL form; the error says what is wrong, for a usage message.
    public static func parse(_ argument: String) -> Result<GpsdAddress, GpsdAddressError> {
        guard argument.hasPrefix(scheme) else {
            return .failure(GpsdAddressError(argument: argument, cause: .noScheme))
        }
        var rest = Substring(argument.dropFirst(scheme.count))
        var address = GpsdAddress()
        if let slash = rest.firstIndex(of: "/") {
            let device = String(rest[slash...])
            rest = rest[..<slash]
            if device != "/" { address.device = device }
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            // An IPv6 literal: [::1]:2947
            guard let close = rest.firstIndex(of: "]") else {
                return .failure(GpsdAddressError(argument: argument, cause: .unclosedBracket))
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    return .failure(GpsdAddressError(argument: argument, cause: .textAfterBracket))
                }
                portPart = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        if !hostPart.isEmpty { address.host = String(hostPart) }
        if let portPart {
            guard let port = Int(portPart), (1...65535).contains(port) else {
                return .failure(GpsdAddressError(argument: argument, cause: .badPort(given: String(portPart))))
            }
            address.port = port
        }
        return .success(address)
    }

    /// `host:port` (IPv6 literals in brackets), as messages name the endpoint.
    public var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The canonical URL, as events and capture headers name the source.
    public var description: String { Self.scheme + endpoint + (device ?? "") }
}

/// A gpsd URL that is not one: the argument as given and what is wrong with it.
public struct GpsdAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Cause: Sendable, Equatable {
        case noScheme
        case unclosedBracket
        case textAfterBracket
        /// The port as given.
        case badPort(given: String)

        var text: String {
            switch self {
            case .noScheme: "it does not start with gpsd://"
            case .unclosedBracket: "an unclosed '[' in the host"
            case .textAfterBracket: "text after ']' that is not ':PORT'"
            case .badPort(let port): "the port '\(port)' is not a number from 1 to 65535"
            }
        }
    }

    public let argument: String
    public let cause: Cause

    public var description: String {
        "'\(argument)' is not a gpsd address (gpsd://[HOST][:PORT][/DEVICE]): \(cause.text)"
    }
}
