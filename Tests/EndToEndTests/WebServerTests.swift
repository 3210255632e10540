import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A plain HTTP/1.1 exchange on 127.0.0.1 over a socket of the test's own: the request exactly as
/// written (no client adds an Origin or a Host of its own), the answer read to its end.
struct HTTPExchange {
    var status = 0
    var headers: [String: String] = [:]
    var body = ""

    static func send(
        port: Int, method: String = "GET", path: String, headers: [String: String] = [:], timeout: Double = 10
    ) throws -> HTTPExchange {
        let fd = try connectLoopback(port)
        defer { close(fd) }
        var request = "\(method) \(path) HTTP/1.1\r\nConnection: close\r\nContent-Length: 0\r\n"
        var fields = headers
        if fields["Host"] == nil { fields["Host"] = "127.0.0.1:\(port)" }
        for (name, value) in fields { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            if entry.revents == 0 { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[..<count])
        }
        return parse(String(decoding: received, as: UTF8.self))
    }

    static func parse(_ text: String) -> HTTPExchange {
        var exchange = HTTPExchange()
        guard let split = text.range(of: "\r\n\r\n") else { return exchange }
        let head = text[..<split.lowerBound].components(separatedBy: "\r\n")
        exchange.status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            exchange.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                .trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if exchange.headers["transfer-encoding"] == "chunked" { body = dechunked(body) }
        exchange.body = body
        return exchange
    }

    static func dechunked(_ text: String) -> String {
        var rest = Substring(text)
        var body = ""
        while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
            let start = end.upperBound
            let bytes = Array(rest[start...].utf8.prefix(size))
            body += String(decoding: bytes, as: UTF8.self)
            rest = rest[rest.utf8.index(start, offsetBy: bytes.count)...].dropFirst(2)
        }
        return body
    }

    static func connectLoopback(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            close(fd)
            throw CocoaError(.fileReadUnknown)
        }
        return fd
    }

    var json: [String: Any]? { jsonObject(body) }
}

/// `run --web` through the real binary on 127.0.0.1 (docs/running.md, "The page on a phone"):
/// every endpoint, who may use them, a hostile fence name, and clients that stop reading.
@Suite(.serialized) struct WebServerTests {
    static let hostileName = "<img src=x onerror=alert(1)>"

    /// A fence file with a polygon north of the anchorage named like an HTML tag.
    static func fences(_ folder: URL) throws {
        let name = hostileName.replacingOccurrences(of: "\"", with: "\\\"")
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"evil","properties":{"name":"\(name)"},"geometry":{"type":"Polygon","coordinates":[[[16.399,43.501],[16.401,43.501],[16.401,43.502],[16.399,43.502],[16.399,43.501]]]}}
        ]}
        """.write(to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
    }

    struct Served {
        let folder: URL
        let port: Int
        let simulator: BackgroundGPSFence
        let run: BackgroundGPSFence
        var state: String { folder.appendingPathComponent("state.sqlite").path }

        func stop() {
            run.signal(SIGINT)
            _ = run.finish()
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
    }

    /// `simulate` driving the boat north, `run --web PORT` reading it.
    /// `rate`: fixes a second (10 at 115200 baud).
    static func serve(
        extra: [String] = [], rate: Int = 1, webArguments: (Int) -> [String] = { ["--web", "\($0)"] },
        simulatorExtra: [String] = []
    ) throws -> Served {
        let folder = temporaryDirectory()
        try fences(folder)
        let route = try LiveStatusTests.northbound(folder, seconds: 600)
        let link = folder.appendingPathComponent("gps0").path
        let baud = rate > 1 ? "115200" : "38400"
        let simulator = try BackgroundGPSFence(
            ["simulate", route, "--baud", baud, "--rate", "\(rate)", "--link", link] + simulatorExtra)
        _ = simulator.readFirstLine()
        let port = try freeLoopbackPort()
        let run = try BackgroundGPSFence(
            [
                "run", "--device", link, "--baud", baud, "--fences",
                folder.appendingPathComponent("fences.geojson").path, "--state",
                folder.appendingPathComponent("state.sqlite").path, "--json",
            ] + webArguments(port) + extra)
        return Served(folder: folder, port: port, simulator: simulator, run: run)
    }

    static func waitFor(_ timeout: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(200_000)
        }
        return try condition()
    }

    static func liveFix(_ port: Int, headers: [String: String] = [:]) -> [String: Any]? {
        (try? HTTPExchange.send(port: port, path: "/api/live", headers: headers))?.json?["fix"] as? [String: Any]
    }

    @Test func everyEndpointAnswers() throws {
        let served = try Self.serve()
        defer { served.stop() }
        let port = served.port
        #expect(Self.waitFor { Self.liveFix(port) != nil }, "a live fix on /api/live")

        let page = try HTTPExchange.send(port: port, path: "/")
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.body.contains("/app.js") && page.body.contains("Acknowledge"), "\(page.body.prefix(300))")
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        let script = try HTTPExchange.send(port: port, path: "/app.js")
        #expect(script.status == 200 && script.body.contains("textContent") && !script.body.contains("innerHTML"))
        #expect(try HTTPExchange.send(port: port, path: "/app.css").status == 200)

        let status = try #require(try HTTPExchange.send(port: port, path: "/api/status").json)
        #expect(status["live"] as? Bool == true && status["running"] as? Bool == true, "\(status)")
        #expect(status["last_fix"] != nil, "\(status)")

        let events = try #require(try HTTPExchange.send(port: port, path: "/api/events?since=0").json)
        let listed = try #require(events["events"] as? [[String: Any]])
        let types = listed.compactMap { ($0["event"] as? [String: Any])?["type"] as? String }
        #expect(types.contains("registered"), "\(events)")
        let last = try #require(events["last"] as? Int)
        let after = try #require(try HTTPExchange.send(port: port, path: "/api/events?since=\(last)").json)
        #expect((after["events"] as? [Any])?.isEmpty == true, "nothing after the last one: \(after)")
        #expect(try HTTPExchange.send(port: port, path: "/api/events?since=soon").status == 400)

        #expect(Self.waitFor { (try? Self.trackCount(port)) ?? 0 >= 3 }, "the track grows with the live fixes")
        #expect(try HTTPExchange.send(port: port, path: "/api/track?since=yesterday").status == 400)

        let fences = try #require(
            try HTTPExchange.send(port: port, path: "/api/fences?bbox=43.49,16.39,43.51,16.41").json)
        let fence = try #require((fences["fences"] as? [[String: Any]])?.first, "\(fences)")
        #expect(fence["name"] as? String == Self.hostileName, "the name as data, byte for byte: \(fence)")
        #expect((fence["rings"] as? [[[Double]]])?.first?.count == 5, "\(fence)")
        let elsewhere = try #require(try HTTPExchange.send(port: port, path: "/api/fences?bbox=10,10,11,11").json)
        #expect((elsewhere["fences"] as? [Any])?.isEmpty == true)
        #expect(try HTTPExchange.send(port: port, path: "/api/fences?bbox=1,2,3").status == 400)

        let stream = try Self.firstServerSentEvent(port)
        #expect(stream.contains("\"fix\""), "the live state at once: \(stream)")
    }

    static func trackCount(_ port: Int) throws -> Int {
        (try HTTPExchange.send(port: port, path: "/api/track").json?["points"] as? [Any])?.count ?? 0
    }

    /// The first `data:` line of `GET /events`.
    static func firstServerSentEvent(_ port: Int) throws -> String {
        let fd = try HTTPExchange.connectLoopback(port)
        defer { close(fd) }
        let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var received = ""
        var buffer = [UInt8](repeating: 0, count: 8192)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, !received.contains("data: {") || !received.hasSuffix("\n\n") {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 200) >= 0 else { break }
            if entry.revents == 0 { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += String(decoding: buffer[..<count], as: UTF8.self)
        }
        return received.components(separatedBy: "\n").first { $0.contains("data: {") } ?? received
    }

    @Test func theAcknowledgeIsRefusedFromAnotherOriginAndTakenFromThePage() throws {
        let served = try Self.serve(extra: ["--anchor", "20", "--alarm"])
        defer { served.stop() }
        let port = served.port
        // The boat (3 m/s) leaves the 20 m circle within about 10 s and has been beyond it for the
        // anchor's delay (22 s) about 30 s after: the alarm sounds.
        #expect(
            Self.waitFor(90) {
                (try? HTTPExchange.send(port: port, path: "/api/live"))?.json?["alarm"] as? String == "active"
            })
        for headers in [
            ["Origin": "http://evil.example"], ["Referer": "http://evil.example/page"],
            ["Origin": "http://127.0.0.1:\(port + 1)"], [:], ["Origin": "null"],
        ] {
            let refused = try HTTPExchange.send(port: port, method: "POST", path: "/api/ack", headers: headers)
            #expect(refused.status == 403, "\(headers): \(refused.status) \(refused.body)")
        }
        let live = try HTTPExchange.send(port: port, path: "/api/live").json
        #expect(live?["alarm"] as? String == "active", "a refused answer answers nothing: \(live ?? [:])")
        let answered = try HTTPExchange.send(
            port: port, method: "POST", path: "/api/ack", headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(answered.status == 202, "\(answered.status) \(answered.body)")
        #expect(
            Self.waitFor(30) {
                (try? HTTPExchange.send(port: port, path: "/api/live"))?.json?["alarm"] as? String == "acknowledged"
            })
        let events = try HTTPExchange.send(port: port, path: "/api/events").json?["events"] as? [[String: Any]] ?? []
        let acknowledged = events.compactMap { $0["event"] as? [String: Any] }.filter {
            $0["type"] as? String == "alarm_acknowledged"
        }
        #expect(acknowledged.count == 1, "\(events)")
        #expect(acknowledged.first?["by"] as? String == "web", "\(acknowledged)")
    }

    @Test func aPageAskedForByAnotherNameIsRefused() throws {
        let served = try Self.serve()
        defer { served.stop() }
        #expect(Self.waitFor { Self.liveFix(served.port) != nil })
        // A site whose name was pointed at 127.0.0.1 reaches the port with its own name as Host.
        let rebound = try HTTPExchange.send(port: served.port, path: "/api/status", headers: ["Host": "evil.example"])
        #expect(rebound.status == 403, "\(rebound.status)")
        let local = try HTTPExchange.send(port: served.port, path: "/api/status", headers: ["Host": "localhost"])
        #expect(local.status == 200)
    }

    @Test func aPasswordIsAskedForAndAnyUserNameWithItIsLetIn() throws {
        let folder = temporaryDirectory()
        let secret = folder.appendingPathComponent("web-password").path
        try "harbour lights\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o600)
        let served = try Self.serve(webArguments: { ["--web", "\($0)", "--web-password-file", secret] })
        defer { served.stop() }
        let port = served.port
        func basic(_ user: String, _ password: String) -> [String: String] {
            ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
        }
        #expect(Self.waitFor { Self.liveFix(port, headers: basic("skipper", "harbour lights")) != nil })
        let none = try HTTPExchange.send(port: port, path: "/")
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"]?.hasPrefix("Basic") == true, "\(none.headers)")
        #expect(
            try HTTPExchange.send(port: port, path: "/api/status", headers: basic("skipper", "harbour")).status == 401)
        #expect(
            try HTTPExchange.send(port: port, path: "/api/status", headers: basic("x", "harbour lightsX")).status == 401
        )
        var ack = basic("skipper", "wrong")
        ack["Origin"] = "http://127.0.0.1:\(port)"
        #expect(try HTTPExchange.send(port: port, method: "POST", path: "/api/ack", headers: ack).status == 401)
        #expect(
            try HTTPExchange.send(port: port, path: "/api/status", headers: basic("skipper", "harbour lights")).status
                == 200)
        #expect(try HTTPExchange.send(port: port, path: "/", headers: basic("", "harbour lights")).status == 200)
    }

    @Test func anotherAddressWithoutAPasswordStopsBeforeAnythingStarts() throws {
        let folder = temporaryDirectory()
        try Self.fences(folder)
        let state = folder.appendingPathComponent("state.sqlite").path
        let open = folder.appendingPathComponent("readable-password").path
        try "harbour lights\n".write(toFile: open, atomically: true, encoding: .utf8)
        chmod(open, 0o644)
        for (arguments, words) in [
            (["--web", "0.0.0.0:8080"], "--web-password-file"),
            (["--web", "8080", "--web-password-file", open], "readable by other users"),
            (["--web", "harbour"], "the port must be a number"),
            (["--web", "70000"], "1 to 65535"),
            (["--web-password-file", open], "goes with --web"),
        ] {
            let result = try runGPSFence(
                [
                    "run", "--device", "/dev/null", "--fences", folder.appendingPathComponent("fences.geojson").path,
                    "--state", state,
                ] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: state), "\(arguments): nothing started")
        }
    }

    /// Pages that stop reading their live updates hold neither the engine nor the other pages.
    @Test func clientsThatStopReadingStallNothing() throws {
        let served = try Self.serve()
        defer { served.stop() }
        let port = served.port
        #expect(Self.waitFor { Self.liveFix(port) != nil })
        var stalled: [Int32] = []
        defer { for fd in stalled { close(fd) } }
        for _ in 0..<20 {
            let fd = try HTTPExchange.connectLoopback(port)
            var small: Int32 = 1024
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
            _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            stalled.append(fd)
        }
        // The run goes on: its fix moves on the local channel and on the page's API, which answers
        // at once, while twenty streams are never read.
        var times: Set<String> = []
        let deadline = Date().addingTimeInterval(30)
        while times.count < 6, Date() < deadline {
            let started = Date()
            let live = try HTTPExchange.send(port: port, path: "/api/live")
            #expect(Date().timeIntervalSince(started) < 2, "an answer within 2 s")
            if let time = (live.json?["fix"] as? [String: Any])?["time"] as? String { times.insert(time) }
            let status = try LiveStatusTests.status(served.state)
            #expect(status["live"] as? Bool == true)
            usleep(500_000)
        }
        #expect(times.count >= 6, "\(times.sorted())")
        #expect(try Self.firstServerSentEvent(port).contains("\"fix\""), "a new page still gets its updates")
    }
}
