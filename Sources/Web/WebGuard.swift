import Foundation
import HTTPTypes
import Hummingbird

/// Who may use the page and the API: with a password, HTTP basic (any user name, that password)
/// for every request; without one (loopback only), requests whose `Host` is a loopback name, so
/// that a web site whose name was made to point at 127.0.0.1 cannot read the page. A request that
/// changes something (`POST`) must come from the page itself: an `Origin` or `Referer` of another
/// host is refused.
struct WebGuard<Context: RequestContext>: RouterMiddleware {
    let password: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let host = request.head.authority ?? ""
        if let password {
            guard Self.credentialsMatch(request.headers[.authorization], password: password) else {
                return Response(
                    status: .unauthorized,
                    headers: [
                        .wwwAuthenticate: "Basic realm=\"gpsfence\", charset=\"UTF-8\"", .contentType: "text/plain",
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: "the password is asked for\n")))
            }
        } else if !WebSettings.isLoopback(Self.hostName(host)) {
            return Self.refused("this page answers to localhost or 127.0.0.1 only")
        }
        if request.method != .get && request.method != .head {
            let origin = request.headers[.origin] ?? request.headers[.referer]
            guard let origin, origin != "null", Self.authority(ofURL: origin) == host.lowercased() else {
                return Self.refused("a change must come from this page (Origin or Referer of this host)")
            }
        }
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }

    static func refused(_ why: String) -> Response {
        Response(
            status: .forbidden, headers: [.contentType: "text/plain"],
            body: .init(byteBuffer: ByteBuffer(string: why + "\n")))
    }

    /// `Basic base64(user:password)` with the right password, compared in constant time.
    static func credentialsMatch(_ header: String?, password: String) -> Bool {
        guard let header, header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let colon = decoded.firstIndex(of: UInt8(ascii: ":"))
        else { return false }
        let given = Array(decoded[decoded.index(after: colon)...])
        let expected = Array(password.utf8)
        var difference = given.count ^ expected.count
        for index in 0..<given.count { difference |= Int(given[index] ^ expected[index % max(1, expected.count)]) }
        return difference == 0
    }

    /// `host:port` of a URL (`http://192.168.1.5:8080/x` -> `192.168.1.5:8080`), lower-cased;
    /// the default port of its scheme is left out, as a browser's `Host` leaves it out.
    static func authority(ofURL text: String) -> String? {
        guard let components = URLComponents(string: text), let host = components.host else { return nil }
        let shown = host.contains(":") ? "[\(host)]" : host
        let port = components.port.map { ":\($0)" } ?? ""
        return (shown + port).lowercased()
    }

    /// The name in a `Host` value, without its port or brackets.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let end = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<end])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "").lowercased()
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
