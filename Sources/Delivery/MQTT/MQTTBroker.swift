import Foundation

/// One broker of an `--mqtt` or `--fences mqtt://` URL: a cluster's nodes are listed in the URL's
/// authority, `mqtt://HOST1:PORT1,HOST2:PORT2/PREFIX`, and the connection moves to the next when
/// the one it uses goes.
public struct MQTTBroker: Sendable, Equatable {
    public var host: String
    public var port: Int

    /// - Parameter host: a name or an address; an IPv6 address with or without its URL brackets.
    public init(host: String, port: Int) {
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = port
    }

    /// `HOST:PORT`, an IPv6 address in brackets.
    public var shown: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }

    /// Whether both name the same endpoint (host names compared without case).
    public func same(as other: MQTTBroker) -> Bool {
        host.lowercased() == other.host.lowercased() && port == other.port
    }
}

/// The broker list of a URL taken apart from the rest, so that the rest is an ordinary one-host URL.
struct MQTTBrokerList {
    /// The URL with its first broker only.
    var firstBrokerURL: String
    /// The text of each further broker (`HOST[:PORT]`), in the URL's order.
    var others: [String]

    /// Splits `url`'s authority at its commas; a URL with one broker comes back as it is.
    static func split(_ url: String) throws(MQTTProblem) -> MQTTBrokerList {
        let bytes = Array(url.utf8)
        let separator = Array("://".utf8)
        guard bytes.count >= separator.count,
            let schemeEnd = (0...(bytes.count - separator.count)).first(where: {
                bytes[$0..<$0 + separator.count].elementsEqual(separator)
            }).map({ $0 + separator.count })
        else { return MQTTBrokerList(firstBrokerURL: url, others: []) }
        let authorityEnd =
            bytes[schemeEnd...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }
            ?? bytes.count
        let hostsStart = (bytes[schemeEnd..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) ?? schemeEnd - 1) + 1
        let hosts = bytes[hostsStart..<authorityEnd].split(
            separator: UInt8(ascii: ","), omittingEmptySubsequences: false
        ).map { String(decoding: $0, as: UTF8.self) }
        guard hosts.count > 1 else { return MQTTBrokerList(firstBrokerURL: url, others: []) }
        if let empty = hosts.firstIndex(where: \.isEmpty) {
            throw .emptyBroker(position: empty + 1)
        }
        let first =
            String(decoding: bytes[..<hostsStart], as: UTF8.self) + hosts[0]
            + String(decoding: bytes[authorityEnd...], as: UTF8.self)
        return MQTTBrokerList(firstBrokerURL: first, others: Array(hosts.dropFirst()))
    }

    /// One further broker's `HOST[:PORT]`, its port defaulting as the scheme's.
    static func broker(_ text: String, position: Int, defaultPort: Int) throws(MQTTProblem) -> MQTTBroker {
        func bad(_ problem: MQTTProblem) -> MQTTProblem { .broker(position: position, written: text, problem) }
        guard !text.contains(where: { $0 == "@" || $0.isWhitespace }),
            let components = URLComponents(string: "mqtt://\(text)/"), let host = components.host, !host.isEmpty
        else { throw bad(.notHostAndPort) }
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { throw bad(.portOutOfRange(port)) }
        return MQTTBroker(host: host, port: port)
    }
}
