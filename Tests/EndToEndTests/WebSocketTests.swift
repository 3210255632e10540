import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// `GET /ws` of `run --web` through the real binary, with a real WebSocket client (the `websockets`
/// library in Debian's Python: Tests/Support/web/ws_client.py): the upgrade, a frame for each move,
/// fifty clients at once, the origin check, the password; and clients that stop reading, which hold
/// neither the run nor the other clients (docs/running.md, "The page on a phone").
@Suite(.serialized) struct WebSocketTests {
    /// Debian's interpreter, for which python3-websockets is installed (scripts/system-packages.txt).
    static let python = "/usr/bin/python3"

    /// ws_client.py's one line, as JSON.
    static func clients(_ port: Int, path: String = "/ws", _ arguments: [String] = []) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [
                packageRoot.appendingPathComponent("Tests/Support/web/ws_client.py").path,
                "ws://127.0.0.1:\(port)\(path)",
            ]
            + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorText = LineCollector(errors.fileHandleForReading)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        errorText.finish()
        let stderr = errorText.all.joined(separator: "\n")
        #expect(
            !stderr.contains("No module named 'websockets'"),
            "install python3-websockets: sh scripts/install-deps.sh test")
        return try #require(jsonObject(text), "ws_client.py said: \(text) \(stderr)")
    }

    static func received(_ answer: [String: Any]) -> [[String: Any]] {
        answer["clients"] as? [[String: Any]] ?? []
    }

    @Test func theLiveStateComesOverAWebSocketAndMovesWithTheBoat() throws {
        let served = try WebServerTests.serve()
        defer { served.stop() }
        let port = served.port
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(port) != nil })
        let answer = try Self.clients(port, ["--positions", "3"])
        let client = try #require(Self.received(answer).first, "\(answer)")
        #expect(client["positions"] as? Int == 3, "three positions, one after each move: \(answer)")
        let first = try #require(client["first"] as? [String: Any], "\(answer)")
        #expect(first["fix"] != nil && first["alarm"] != nil, "the live state at once, as /api/live has it: \(first)")
        #expect(Set(first.keys) == Set(try #require(HTTPExchange.send(port: port, path: "/api/live").json).keys))

        let plain = try HTTPExchange.send(port: port, path: "/ws")
        #expect(plain.status == 426, "a GET without the upgrade: \(plain.status) \(plain.body)")
        #expect(plain.headers["upgrade"] == "websocket", "\(plain.headers)")
        let elsewhere = try Self.clients(port, path: "/api/live")
        #expect(elsewhere["refused"] as? Int == 404, "no WebSocket but /ws: \(elsewhere)")
        #expect(try Self.firstServerSentEventStillComes(port), "the server-sent events go on beside it")
    }

    static func firstServerSentEventStillComes(_ port: Int) throws -> Bool {
        try WebServerTests.firstServerSentEvent(port).contains("\"fix\"")
    }

    @Test func fiftyClientsAtOnceAllReceiveEachMove() throws {
        let served = try WebServerTests.serve()
        defer { served.stop() }
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(served.port) != nil })
        let answer = try Self.clients(served.port, ["--clients", "50", "--positions", "2"])
        let clients = Self.received(answer)
        #expect(clients.count == 50, "\(answer)")
        let moved = clients.filter { $0["positions"] as? Int == 2 }
        #expect(moved.count == 50, "every client saw the boat move: \(clients.map { $0["positions"] ?? "none" })")
    }

    @Test func anUpgradeFromAnotherOriginIsRefused() throws {
        let served = try WebServerTests.serve()
        defer { served.stop() }
        let port = served.port
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(port) != nil })
        for origin in ["http://evil.example", "http://127.0.0.1:\(port + 1)", "null", "http://localhost.evil.example"] {
            let answer = try Self.clients(port, ["--origin", origin])
            #expect(answer["refused"] as? Int == 403, "\(origin): \(answer)")
        }
        for origin in ["http://127.0.0.1:\(port)", "http://127.0.0.1:\(port)/"] {
            let answer = try Self.clients(port, ["--origin", origin, "--positions", "2"])
            #expect(Self.received(answer).first?["positions"] as? Int == 2, "the page's own origin: \(answer)")
        }
    }

    @Test func aWebSocketAsksForThePassword() throws {
        let folder = temporaryDirectory()
        let secret = folder.appendingPathComponent("web-password").path
        try "harbour lights\n".write(toFile: secret, atomically: true, encoding: .utf8)
        chmod(secret, 0o600)
        let served = try WebServerTests.serve(webArguments: { ["--web", "\($0)", "--web-password-file", secret] })
        defer { served.stop() }
        let port = served.port
        let basic = ["Authorization": "Basic " + Data("skipper:harbour lights".utf8).base64EncodedString()]
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(port, headers: basic) != nil })
        let none = try Self.clients(port)
        #expect(none["refused"] as? Int == 401, "\(none)")
        let wrong = try Self.clients(port, ["--password", "harbour"])
        #expect(wrong["refused"] as? Int == 401, "\(wrong)")
        let right = try Self.clients(port, ["--password", "harbour lights", "--positions", "2"])
        #expect(Self.received(right).first?["positions"] as? Int == 2, "\(right)")
    }

    /// A socket whose receive buffer is as small as the kernel allows, that asks for `request` and
    /// then never reads.
    static func stalledClient(_ port: Int, _ request: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var small: Int32 = 1024
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw CocoaError(.fileReadUnknown)
        }
        _ = request.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        return fd
    }

    /// The local port of socket `fd`.
    static func localPort(_ fd: Int32) -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The client ports whose connection to the server's `port` the server still holds open
    /// (ESTABLISHED in the kernel's table, /proc/net/tcp). A connection the server closed while the
    /// client reads nothing waits in FIN-WAIT-1 with its unsent data: the client cannot see the close
    /// without reading, and reading would be the end of its stall.
    static func heldOpen(byServerOn port: Int) -> Set<Int> {
        let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
        var open: Set<Int> = []
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, fields[3] == "01",
                let local = fields[1].split(separator: ":").last.flatMap({ Int($0, radix: 16) }), local == port,
                let remote = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) })
            else { continue }
            open.insert(remote)
        }
        return open
    }

    static func residentKilobytes(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }

    /// Fifty clients (server-sent events and WebSockets) that stop reading a 10 Hz run: the run
    /// prints its events on time, five other WebSocket clients get each move, the run's memory does
    /// not grow with what the stalled ones did not take, and the stalled ones are dropped.
    @Test func clientsThatStopReadingHoldNeitherTheRunNorTheOthers() throws {
        let served = try WebServerTests.serve(extra: ["--heartbeat", "1"], rate: 10)
        defer { served.stop() }
        let console = LineCollector(served.run.output.fileHandleForReading)
        let port = served.port
        #expect(WebServerTests.waitFor { WebServerTests.liveFix(port) != nil })
        var stalled: [Int32] = []
        defer { for fd in stalled { close(fd) } }
        for index in 0..<50 {
            let request =
                index % 2 == 0
                ? "GET /events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                : "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            stalled.append(try Self.stalledClient(port, request))
        }
        // Long enough for every stalled client's socket and the server's buffer of its connection
        // (64 kB) to fill, so that anything kept for them from here on would be kept in memory.
        #expect(console.wait(timeout: 90) { types($0).filter { $0 == "heartbeat" }.count >= 15 })
        let heartbeatsBefore = types(console.all).filter { $0 == "heartbeat" }.count
        let residentBefore = Self.residentKilobytes(served.run.process.processIdentifier)
        let window = 20.0
        let answer = try Self.clients(port, ["--clients", "5", "--seconds", String(window)])
        let heartbeats = types(console.all).filter { $0 == "heartbeat" }.count - heartbeatsBefore
        let residentAfter = Self.residentKilobytes(served.run.process.processIdentifier)

        #expect(heartbeats >= Int(window) - 3, "the console's heartbeat, one a second: \(heartbeats) in \(window) s")
        let positions = Self.received(answer).map { $0["positions"] as? Int ?? 0 }
        #expect(positions.count == 5, "\(answer)")
        #expect(
            positions.allSatisfy { $0 >= Int(window) * 10 / 4 },
            "the other clients see the boat move at 10 Hz (\(Int(window) * 10) moves): \(positions)")
        // Fifty clients that took nothing for 20 s at about 11 frames a second of some 500 bytes:
        // 5 MB or more, were the bytes each did not take kept for it (in the server's buffers of
        // its connection). The frames themselves are shared: a mailbox that kept them all would
        // grow too slowly to see here, and it is the drop below that bounds it.
        #expect(
            residentAfter - residentBefore < 2048,
            "resident memory \(residentBefore) kB -> \(residentAfter) kB over \(window) s")
        // Once a frame has waited longer than WebLiveFeed.stallLimit (15 s) for a stalled client's
        // full buffers, the server closes its connection.
        let ports = Set(stalled.map(Self.localPort))
        #expect(
            waitUntil(timeout: 60) { Self.heldOpen(byServerOn: port).isDisjoint(with: ports) },
            "\(Self.heldOpen(byServerOn: port).intersection(ports).count) of 50 stalled clients still held open")
        #expect(try Self.firstServerSentEventStillComes(port), "a new page still gets its updates")
    }
}
