import Foundation
import Platform
import Receivers
import Testing
import Waiting

@testable import Delivery

/// POSTs over plain http:// on a connection of their own (`PlainHTTP`), against a real HTTP server
/// on 127.0.0.1 (Tests/Support/sync_server.py, which logs each request as it saw it) and a socket
/// that accepts and never answers. (That nothing wakes the process between requests any more, as
/// URLSession's timer did, is measured by scripts/bench_live_cost.py.)
@Suite(.serialized) struct PlainHTTPTests {
    /// The server's process, its port and its log of requests.
    final class Server {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-http-\(UUID().uuidString)")
        var log: URL { Self.log(in: folder) }
        var statusFile: URL { Self.statusFile(in: folder) }
        static func log(in folder: URL) -> URL { folder.appendingPathComponent("requests.jsonl") }
        static func statusFile(in folder: URL) -> URL { folder.appendingPathComponent("status") }
        let process: Process
        let port: Int

        /// sync_server.py, answering the status the test writes into `statusFile` (200 without it).
        init() throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (log, statusFile) = (Self.log(in: folder), Self.statusFile(in: folder))
            (process, port) = try startSupportServer("sync_server.py", [log.path, "--status-file", statusFile.path])
            // The script prints its port before it listens.
            waitUntil(timeout: 10) {
                guard let probe = try? TCPSocket.connect(host: "127.0.0.1", port: port, timeout: 1) else {
                    return false
                }
                probe.close()
                return true
            }
        }

        var requests: [[String: Any]] {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func aPostCarriesItsPathQueryHeadersAndBodyAndTwoHundredIsDelivered() throws {
        let server = try Server()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/events?source=van&x=%20y"))
        let poster = HTTPPoster(url: url, headers: [HTTPHeader(name: "Title", value: "Gate")])
        let outcome = poster.post(
            Data(#"{"id":"abc"}"#.utf8), contentType: "application/json",
            requestHeaders: [(name: "X-Gpsfence-Event-Id", value: "abc")])
        #expect(outcome == .delivered)
        let request = try #require(server.requests.first)
        #expect(request["method"] as? String == "POST")
        #expect(request["path"] as? String == "/api/events")
        #expect(request["query"] as? [String: String] == ["source": "van", "x": " y"])
        #expect(request["body"] as? String == #"{"id":"abc"}"#)
        let headers = try #require(request["headers"] as? [String: String])
        #expect(headers["content-type"] == "application/json")
        #expect(headers["x-gpsfence-event-id"] == "abc" && headers["title"] == "Gate")
        #expect(headers["host"] == "127.0.0.1:\(server.port)" && headers["content-length"] == "12")
    }

    @Test func theUserOfTheURLIsSentAsBasicAuthorization() throws {
        let server = try Server()
        let url = try #require(URL(string: "http://gps:p%40ss@127.0.0.1:\(server.port)/"))
        #expect(HTTPPoster(url: url).post(Data("{}".utf8), contentType: nil) == .delivered)
        let headers = try #require(server.requests.first?["headers"] as? [String: String])
        #expect(headers["authorization"] == "Basic " + Data("gps:p@ss".utf8).base64EncodedString())
    }

    @Test func anAnswerOtherThanTwoHundredFailsWithItsStatus() throws {
        let server = try Server()
        try "503".write(to: server.statusFile, atomically: false, encoding: .utf8)
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/hook"))
        #expect(HTTPPoster(url: url).post(Data("{}".utf8), contentType: nil) == .failed(.httpStatus(503)))
        try "204".write(to: server.statusFile, atomically: false, encoding: .utf8)
        #expect(HTTPPoster(url: url).post(Data("{}".utf8), contentType: nil) == .delivered)
    }

    @Test func nobodyListeningAndNoAnswerFailWithinTheTimeout() throws {
        // A port nobody listens on: the server of a first test, gone.
        let gone = try Server()
        let port = gone.port
        kill(gone.process.processIdentifier, SIGKILL)
        gone.process.waitUntilExit()
        let refused = HTTPPoster(url: try #require(URL(string: "http://127.0.0.1:\(port)/")), requestTimeout: 2)
            .post(Data("{}".utf8), contentType: nil)
        guard case .failed(let failure) = refused else {
            Issue.record("delivered to nobody")
            return
        }
        #expect(failure.text.contains("connect"), "\(failure.text)")

        // A socket that accepts the connection and never says a word.
        let silent = Process()
        silent.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        silent.arguments = [
            "python3", "-c",
            "import socket, sys, time\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen(4)\n"
                + "print(s.getsockname()[1], flush=True)\nc = s.accept()\ntime.sleep(30)\n",
        ]
        let output = Pipe()
        silent.standardOutput = output
        try silent.run()
        defer {
            kill(silent.processIdentifier, SIGKILL)
            silent.waitUntilExit()
        }
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let silentPort = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        let start = Date()
        let unanswered = HTTPPoster(
            url: try #require(URL(string: "http://127.0.0.1:\(silentPort)/")), requestTimeout: 1
        )
        .post(Data("{}".utf8), contentType: nil)
        #expect(unanswered == .failed(.noAnswer(within: 1)))
        #expect(Date().timeIntervalSince(start) < 10)
    }

    @Test func requestAndStatusLine() {
        let url = URL(string: "http://[::1]:8123/api/webhook/x")!
        let text = String(decoding: PlainHTTP.request(Data("hi".utf8), to: url, headers: [("A", "b")]), as: UTF8.self)
        #expect(
            text
                == "POST /api/webhook/x HTTP/1.1\r\nHost: [::1]:8123\r\nA: b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
        )
        // A configured header replaces the one set by gpsfence, in its place; Content-Length and
        // Connection stay the request's own.
        let replaced = PlainHTTP.request(
            Data(), to: URL(string: "http://h/")!,
            headers: [
                ("Content-Type", "application/json"), ("X-Id", "1"), ("content-type", "text/plain"),
                ("Content-Length", "99"), ("Connection", "keep-alive"),
            ])
        #expect(
            String(decoding: replaced, as: UTF8.self)
                == "POST / HTTP/1.1\r\nHost: h\r\ncontent-type: text/plain\r\nX-Id: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        #expect(PlainHTTP.status(Data("HTTP/1.1 201 Created\r\n".utf8)) == 201)
        #expect(PlainHTTP.status(Data("HTTP/1.0 404".utf8)) == nil, "not whole yet")
        #expect(PlainHTTP.status(Data("SSH-2.0-OpenSSH\r\n".utf8)) == -1)
    }
}
