import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// A real mosquitto broker on 127.0.0.1 for the MQTT tests, with a config file of its own in a
/// private folder: a plain listener, optionally a TLS listener (a test CA made with `openssl`)
/// and a password file (made with `mosquitto_passwd`). Persistence is on, so that a stop and a
/// restart keep a persistent subscriber's session and its queued messages. Stopped by pid.
final class MosquittoBroker {
    let folder: URL
    let port: Int
    private(set) var tlsPort: Int?
    private(set) var caFile: String?
    private(set) var process: Process?
    let credentials: (user: String, password: String)?
    /// With `clientCertificates`: each name's certificate and key (PEM, the key mode 0600), signed
    /// by the test CA with the name as the subject's CN.
    private(set) var clientCertificates: [String: (certificate: String, key: String)] = [:]

    /// - Parameter clientCertificates: names to make client certificates for; the TLS listener
    ///   then requires one and takes its CN as the user name.
    init(
        tls: Bool = false, credentials: (user: String, password: String)? = nil, clientCertificates: [String] = []
    ) throws {
        folder = temporaryDirectory().appendingPathComponent("mosquitto")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try freeLoopbackPort()
        self.credentials = credentials
        var config = """
            per_listener_settings false
            persistence true
            persistence_location \(folder.path)/
            log_dest file \(folder.path)/mosquitto.log
            log_type all
            user root
            listener \(port) 127.0.0.1

            """
        if let credentials {
            let passwords = folder.appendingPathComponent("passwd").path
            try runTool("/usr/bin/mosquitto_passwd", ["-b", "-c", passwords, credentials.user, credentials.password])
            config += "allow_anonymous false\npassword_file \(passwords)\n"
        } else {
            config += "allow_anonymous true\n"
        }
        if tls {
            let tlsPort = try freeLoopbackPort()
            self.tlsPort = tlsPort
            let ca = folder.appendingPathComponent("ca.pem").path
            let caKey = folder.appendingPathComponent("ca.key").path
            let key = folder.appendingPathComponent("server.key").path
            let request = folder.appendingPathComponent("server.csr").path
            let certificate = folder.appendingPathComponent("server.pem").path
            let extensions = folder.appendingPathComponent("server.ext")
            try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(to: extensions, atomically: true, encoding: .utf8)
            try runTool(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", caKey, "-out", ca, "-days", "2",
                    "-subj", "/CN=gpsfence test CA",
                ])
            try runTool(
                "/usr/bin/openssl",
                ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", request, "-subj", "/CN=localhost"])
            try runTool(
                "/usr/bin/openssl",
                [
                    "x509", "-req", "-in", request, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out", certificate,
                    "-days", "2",
                    "-extfile", extensions.path,
                ])
            caFile = ca
            for name in clientCertificates {
                let clientKey = folder.appendingPathComponent("\(name).key").path
                let clientRequest = folder.appendingPathComponent("\(name).csr").path
                let clientCertificate = folder.appendingPathComponent("\(name).pem").path
                try runTool(
                    "/usr/bin/openssl",
                    [
                        "req", "-newkey", "rsa:2048", "-nodes", "-keyout", clientKey, "-out", clientRequest, "-subj",
                        "/CN=\(name)",
                    ])
                try runTool(
                    "/usr/bin/openssl",
                    [
                        "x509", "-req", "-in", clientRequest, "-CA", ca, "-CAkey", caKey, "-CAcreateserial", "-out",
                        clientCertificate, "-days", "2",
                    ])
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: clientKey)
                self.clientCertificates[name] = (clientCertificate, clientKey)
            }
            config += "listener \(tlsPort) 127.0.0.1\ncafile \(ca)\ncertfile \(certificate)\nkeyfile \(key)\n"
            if !clientCertificates.isEmpty { config += "require_certificate true\nuse_identity_as_username true\n" }
        }
        try config.write(to: folder.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts (or restarts, on the same ports) the broker and waits until it accepts connections.
    func start() throws {
        let process = childProcess("/usr/sbin/mosquitto", ["-c", folder.appendingPathComponent("mosquitto.conf").path])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        if waitUntil(timeout: 15, every: 0.05, { canConnect(port: port) }) { return }
        Issue.record("mosquitto did not listen on \(port): \(log)")
    }

    /// Stops the broker by its pid (SIGTERM: it saves its persistence file) and waits for the exit.
    func stop() {
        guard let process, process.isRunning else { return }
        terminate(process, name: "mosquitto", grace: 10)
        self.process = nil
    }

    /// SIGKILL: the broker dies as a machine does, without saying goodbye.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    var log: String { (try? String(contentsOf: folder.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? "" }

    var authArguments: [String] { credentials.map { ["-u", $0.user, "-P", $0.password] } ?? [] }

    /// A subscriber (`mosquitto_sub -v`, QoS 1) that is known to be subscribed when this returns:
    /// it has received a probe published after it started. `persistentID` makes it a persistent
    /// session (clean session off), so messages published while it is away are queued for it.
    func subscribe(_ filter: String, persistentID: String? = nil) throws -> Subscriber {
        var arguments =
            ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-v", "-t", filter, "-t", "gpsfence-test/probe"]
            + authArguments
        if let persistentID { arguments += ["-c", "-i", persistentID] }
        let subscriber = try Subscriber(arguments)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            try publish("gpsfence-test/probe", "ready")
            if subscriber.lines.wait(timeout: 0.5, until: { $0.contains("gpsfence-test/probe ready") }) {
                return subscriber
            }
        }
        Issue.record("the subscriber never saw its probe")
        return subscriber
    }

    func publish(_ topic: String, _ message: String) throws {
        try runTool(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", message] + authArguments)
    }

    /// What a subscriber that connects now sees within `seconds`: the retained messages.
    func retained(_ filter: String, seconds: Int = 2) throws -> [String: String] {
        let output = try runTool(
            "/usr/bin/mosquitto_sub",
            ["-h", "127.0.0.1", "-p", String(port), "-v", "-t", filter, "-W", String(seconds)] + authArguments,
            allowFailure: true)
        var messages: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            messages[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return messages
    }

    deinit { stop() }
}

/// A running `mosquitto_sub`.
final class Subscriber {
    let process: Process
    let output = Pipe()
    let lines: LineCollector

    init(_ arguments: [String]) throws {
        process = childProcess("/usr/bin/mosquitto_sub", arguments)
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        lines = LineCollector(output.fileHandleForReading)
    }

    /// Payloads received on `topic`, in order.
    func payloads(_ topic: String) -> [String] {
        lines.all.compactMap { line in
            guard line.hasPrefix(topic + " ") else { return nil }
            return String(line.dropFirst(topic.count + 1))
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// A Process for `path` whose signal mask is cleared before the exec: the test process blocks most
/// signals, and a child inherits that mask, so a broker would ignore the SIGTERM that stops it
/// and `mosquitto_sub -W` its alarm.
func childProcess(_ path: String, _ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments =
        [
            "-c",
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
            path,
        ] + arguments
    return process
}

@discardableResult
func runTool(_ path: String, _ arguments: [String], allowFailure: Bool = false) throws -> String {
    let process = childProcess(path, arguments)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if !allowFailure, process.terminationStatus != 0 {
        Issue.record("\(path) \(arguments) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

func canConnect(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// The `id` of each JSON line (events), in order.
func eventIDs(_ lines: [String]) -> [String] {
    lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["id"] as? String }
}

/// The ids in order of first arrival: at-least-once delivery may repeat one, never reorder.
func firstArrivals(_ ids: [String]) -> [String] {
    var seen = Set<String>()
    return ids.filter { seen.insert($0).inserted }
}

func jsonObject(_ text: String?) -> [String: Any]? {
    text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

/// SIGTERM to a server the tests started, `grace` seconds to exit, then SIGKILL (recorded as an
/// issue: it ignored the polite request); waits for the exit either way.
func terminate(_ process: Process, name: String, grace: Double) {
    kill(process.processIdentifier, SIGTERM)
    if !waitUntil(timeout: grace, { !process.isRunning }) {
        Issue.record("\(name) ignored SIGTERM for \(Int(grace)) s; killed")
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
}
