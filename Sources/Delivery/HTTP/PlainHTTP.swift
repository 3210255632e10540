import Events
import Foundation
import NMEA
import Platform

/// A POST over plain http://, on a TCP connection of its own that is closed after the answer's
/// status line: what the webhook and the track sync need, and nothing that runs between requests.
/// Foundation's URLSession keeps a timer that wakes the process every second for good once it has
/// made a request (docs/performance.md, "Live cost"), which an idle Raspberry Pi should not pay;
/// https:// still goes through URLSession, for its TLS.
///
/// Connects directly (no proxy from the environment); HTTP/1.1 with `Connection: close`; the
/// user and password of the URL, if any, as Basic authorization.
enum PlainHTTP {
    /// The request's bytes: request line, `Host`, the headers in order, `Content-Length`, body. Of
    /// headers with the same name (in any case) the last one given is sent, in the place of the
    /// first (a configured header replaces one gpsfence sets itself, docs/running.md "Request
    /// headers"); a `Host` given replaces the URL's; `Content-Length` and `Connection` are always
    /// this request's own.
    static func request(
        _ body: Data, to url: URL, headers given: [(name: String, value: String)]
    ) -> Data {
        var headers: [(name: String, value: String)] = []
        for header in given {
            if let index = headers.firstIndex(where: { $0.name.lowercased() == header.name.lowercased() }) {
                headers[index] = header
            } else {
                headers.append(header)
            }
        }
        headers.removeAll { ["content-length", "connection"].contains($0.name.lowercased()) }
        let givenHost = headers.firstIndex { $0.name.lowercased() == "host" }.map { headers.remove(at: $0).value }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let host = url.host ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let hostLine = givenHost ?? url.port.map { "\(bracketed):\($0)" } ?? bracketed
        var lines = ["POST \(target) HTTP/1.1", "Host: " + hostLine]
        if let user = url.user {
            let credentials = "\(user.removingPercentEncoding ?? user):\(url.password?.removingPercentEncoding ?? "")"
            lines.append("Authorization: Basic " + Data(credentials.utf8).base64EncodedString())
        }
        for header in headers { lines.append("\(header.name): \(header.value)") }
        lines.append("Content-Length: \(body.count)")
        lines.append("Connection: close")
        var bytes = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        bytes.append(body)
        return bytes
    }

    /// The status code of a response that begins with `bytes`: nil until its status line is whole,
    /// -1 when that line is not an HTTP status line.
    static func status(_ bytes: Data) -> Int? {
        guard let end = bytes.firstRange(of: Data("\r\n".utf8)) else { return nil }
        let line = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            return -1
        }
        return code
    }

    /// POSTs `body` to `url` (http://) and waits, `timeout` seconds at most in all, for the status.
    static func post(
        _ body: Data, to url: URL, headers: [(name: String, value: String)], timeout: Double
    ) -> DeliveryOutcome {
        guard let host = url.host, !host.isEmpty else { return .failed(.noHost) }
        let deadline = monotonicSeconds() + timeout
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(
                host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: url.port ?? 80,
                timeout: timeout)
        } catch {
            return .failed(.connection(error))
        }
        defer { socket.close() }
        do {
            try request(body, to: url, headers: headers).withUnsafeBytes { try socket.write($0) }
        } catch let error as SocketError {
            return .failed(.connection(error))
        } catch {
            return .failed(.caught(CaughtError(error)))
        }
        var answer = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while answer.count < 64 * 1024 {
            if let code = status(answer) {
                guard code >= 0 else { return .failed(.notHTTP) }
                return (200..<300).contains(code) ? .delivered : .failed(.httpStatus(code))
            }
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return .failed(.noAnswer(within: Int(timeout))) }
            do {
                switch try socket.read(into: buffer, timeout: left) {
                case .data(let count): answer.append(contentsOf: buffer[0..<count])
                case .timeout: continue
                case .closed: return .failed(answer.isEmpty ? .closedByServer : .notHTTP)
                }
            } catch {
                return .failed(.connection(error))
            }
        }
        return .failed(.notHTTP)
    }
}
