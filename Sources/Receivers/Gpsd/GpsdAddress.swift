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
            return .failure(GpsdAddressError(argument, "it does not start with gpsd://"))
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
                return .failure(GpsdAddressError(argument, "an unclosed '[' in the host"))
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    return .failure(GpsdAddressError(argument, "text after ']' that is not ':PORT'"))
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
                return .failure(GpsdAddressError(argument, "the port '\(portPart)' is not a number from 1 to 65535"))
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

public struct GpsdAddressError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// What is wrong, without the argument.
    public var problem: String

    init(_ argument: String, _ problem: String) {
        self.problem = problem
        description = "'\(argument)' is not a gpsd address (gpsd://[HOST][:PORT][/DEVICE]): \(problem)"
    }
}
