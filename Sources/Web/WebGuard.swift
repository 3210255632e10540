import Foundation
import HTTPTypes
import Hummingbird

/// Who may use the page and the API: with a password, HTTP basic (any user name, that password)
/// for every request; without one (loopback only), requests whose `Host` is a loopback name, so
/// that a web site whose name was made to point at 127.0.0.1 cannot read the page. A request that
/// changes something (`POST`) must come from the page itself: an `Origin` or `Referer` of another
/// host is refused. A WebSocket (`/ws`) whose `Origin` names another host is refused too: browsers
/// send `Origin` with every WebSocket they open, and a WebSocket is not bound by the same-origin
/// rule that keeps another site from reading `/events`; a client that sends none is no browser.
struct WebGuard<Context: RequestContext>: RouterMiddleware {
    let password: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if let refusal = Self.refusal(request, password: password) { return refusal.response }
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }

    /// Why `request` may not be answered, or nil when it may.
    static func refusal(_ request: Request, password: String?) -> WebRefusal? {
        let host = request.head.authority ?? ""
        if let password {
            guard credentialsMatch(request.headers[.authorization], password: password) else {
                return WebRefusal(
                    status: .unauthorized, text: "the password is asked for",
                    headers: [.wwwAuthenticate: "Basic realm=\"gpsfence\", charset=\"UTF-8\""])
            }
        } else if !WebSettings.isLoopback(hostName(host)) {
            return WebRefusal(status: .forbidden, text: "this page answers to localhost or 127.0.0.1 only")
        }
        if request.method != .get && request.method != .head {
            let origin = request.headers[.origin] ?? request.headers[.referer]
            guard let origin, origin != "null", authority(ofURL: origin) == host.lowercased() else {
                return WebRefusal(
                    status: .forbidden, text: "a change must come from this page (Origin or Referer of this host)")
            }
        }
        if request.uri.path == WebAPI.webSocketPath, let origin = request.headers[.origin],
            origin == "null" || authority(ofURL: origin) != host.lowercased()
        {
            return WebRefusal(status: .forbidden, text: "live updates go to this page only (Origin of this host)")
        }
        return nil
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

/// A request refused: its status, and a line saying why.
struct WebRefusal: Sendable {
    var status: HTTPResponse.Status
    var text: String
    var headers: HTTPFields = [:]

    var response: Response {
        var fields = headers
        fields[.contentType] = "text/plain"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
