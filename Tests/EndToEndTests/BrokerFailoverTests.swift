import Foundation
import Platform
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// docs/fleet.md: `--mqtt` with several brokers, against real mosquitto brokers judged by real
/// subscribers; a broker is killed (SIGKILL) while a vehicle publishes, and nothing it printed may
/// be lost, reordered or given a new id; nodes that hang or drop packets are left for the next.
/// The 3-node cluster with a whole fleet is ClusterFailoverTests.
@Suite(.serialized) struct BrokerFailoverTests {
    /// Two independent brokers: the events up to the kill reach the first, the next ones the
    /// second, where the retained present (status, fence states, Home Assistant's discovery) is
    /// published again; the first comes back and the second is killed: the rest go to the first
    /// again (round the list). A central consumer of such brokers subscribes on each: together
    /// its persistent subscriptions see every event, once by id, in the vehicle's order.
    @Test func theBrokerInUseDiesAndTheVehicleMovesToTheNextLosingNothing() throws {
        let folder = temporaryDirectory()
        let road = try FleetVehicle.road(folder)
        let fences = folder.appendingPathComponent("fences.geojson")
        try FleetVehicle.fences().write(to: fences, atomically: true, encoding: .utf8)
        let first = try MosquittoBroker()
        let second = try MosquittoBroker()
        var subscribers = [
            try first.subscribe("fleet/#", persistentID: "central-a-\(getpid())"),
            try second.subscribe("fleet/#", persistentID: "central-b-\(getpid())"),
        ]
        let topic = "fleet/van-1/event"
        let vehicle = try FleetVehicle(
            name: "van-1", folder: folder, road: road, fences: fences.path,
            mqtt: "mqtt://127.0.0.1:\(first.port),127.0.0.1:\(second.port)/fleet/van-1",
            start: "2026-02-03T10:15:00Z", extra: ["--homeassistant"])
        /// What the consumer got, in the order the brokers carried it: each subscriber's first
        /// arrivals, less what an earlier one had.
        func received() -> [String] {
            var seen = Set<String>()
            return subscribers.flatMap { subscriber in
                firstArrivals(eventIDs(subscriber.payloads(topic))).filter { seen.insert($0).inserted }
            }
        }
        /// Kills `broker` once `subscriber` has some events, and waits for 16 more to be printed
        /// and to arrive.
        func kill(_ broker: MosquittoBroker, after subscriber: Subscriber, _ moment: String) {
            #expect(
                subscriber.lines.wait(timeout: 30) { _ in eventIDs(subscriber.payloads(topic)).count >= 6 },
                "\(moment): \(vehicle.output.all.suffix(5))")
            broker.kill()
            let printedBefore = vehicle.printed.count
            #expect(vehicle.output.wait(timeout: 40) { eventIDs($0).count >= printedBefore + 16 }, "\(moment)")
            let printed = vehicle.printed
            #expect(
                vehicle.output.wait(timeout: 30) { _ in Set(received()).isSuperset(of: printed) },
                "\(moment), missing: \(Set(printed).subtracting(received()))")
        }

        kill(first, after: subscribers[0], "the first broker")
        // The present, published again on the second broker.
        let present = try second.retained("fleet/van-1/#")
        #expect(present.keys.filter { $0.hasPrefix("fleet/van-1/fence/") }.count == 8, "\(present.keys.sorted())")
        #expect(jsonObject(present["fleet/van-1/status"])?["state"] as? String == "online")
        let discovery = try second.retained("homeassistant/#")
        #expect(
            discovery.keys.filter { $0.hasPrefix("homeassistant/binary_sensor/fleet_van-1/fence_") }.count == 8,
            "\(discovery.keys.sorted())")
        #expect(discovery["homeassistant/device_tracker/fleet_van-1/tracker/config"] != nil)

        // Its subscriber would reconnect to the first broker when that is back: the one that
        // subscribes then stands for the consumer's next session there.
        subscribers[0].stop()
        try first.start()
        subscribers.append(try first.subscribe("fleet/#", persistentID: "central-a2-\(getpid())"))
        kill(second, after: subscribers[1], "the second broker")
        let printed = vehicle.printed
        let stderr = vehicle.stop()

        let all = vehicle.printed
        let arrived = received()
        #expect(Array(all.prefix(arrived.count)) == arrived, "every event once by id, in the vehicle's order")
        #expect(Set(arrived).isSuperset(of: printed))
        #expect(eventIDs(subscribers[1].payloads(topic)).count >= 16, "the second broker carried some")
        #expect(eventIDs(subscribers[2].payloads(topic)).count >= 16, "the first broker, back, carried the rest")
        let errors = vehicle.errors
        for (gone, next) in [(first.port, second.port), (second.port, first.port)] {
            #expect(
                errors.contains { $0.contains("127.0.0.1:\(gone): connection lost") && $0.contains("next broker") },
                "\(errors) \(stderr)")
            #expect(
                vehicle.notices.all.contains { $0.hasSuffix("is reachable again (on 127.0.0.1:\(next))") },
                "\(vehicle.notices.all)")
        }
    }

    /// A node that takes the TCP connection and never answers the CONNECT (a broker hung, or
    /// holding the connection while its cluster moves a session): the attempt gives up after
    /// 15 s and the next broker of the list gets every event.
    @Test func aNodeThatNeverAnswersIsLeftForTheNext() throws {
        let hung = try LoopbackNode(
            backlog: 8, serve: "held = []\nwhile True:\n    held.append(s.accept())")
        let took = try withExtendedLifetime(hung) { try replayPast(hung.port, problem: "no CONNACK within 15 s") }
        #expect(took >= 15 && took < 30, "\(took) s")
    }

    /// A host that drops packets (down, or behind a firewall that drops rather than refuses): no
    /// TCP connection comes, and the kernel would retry the SYN for about two minutes. The
    /// attempt gives up after 10 s and the next broker of the list gets every event. The black hole
    /// is a listening socket on loopback that never accepts, its one-place accept queue filled
    /// by an idle connection of its own, so the kernel drops every further SYN.
    @Test func aHostThatDropsPacketsIsLeftForTheNext() throws {
        let blackHole = try LoopbackNode(
            backlog: 0, prepare: "idle = socket.create_connection(s.getsockname())\n",
            serve: "while True:\n    time.sleep(60)")
        let took = try withExtendedLifetime(blackHole) {
            try replayPast(blackHole.port, problem: "no TCP connection within 10 s")
        }
        #expect(took >= 10 && took < 25, "\(took) s")
    }

    /// Replays a capture with `--mqtt` listing the node on 127.0.0.1:`port` first and a real broker
    /// second: the replay ends well, an error names the node and `problem`, and the broker gets
    /// every event printed. Returns how long the replay took (s).
    func replayPast(_ port: Int, problem: String) throws -> Double {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("fleet/#")
        let started = Date()
        let result = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--json",
            "--mqtt", "mqtt://127.0.0.1:\(port),127.0.0.1:\(broker.port)/fleet/van-1",
        ])
        let took = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let errors = lines.compactMap(jsonObject).filter { $0["type"] as? String == "error" }.compactMap {
            $0["message"] as? String
        }
        #expect(errors.contains { $0.contains("127.0.0.1:\(port): \(problem); trying the next broker") }, "\(errors)")
        #expect(!eventIDs(lines).isEmpty)
        #expect(eventIDs(subscriber.payloads("fleet/van-1/event")) == eventIDs(lines), "\(result.stderr)")
        return took
    }
}

/// A python3 socket `s` listening on 127.0.0.1 with an accept queue of `backlog`, on a port of
/// its own: it runs `prepare`, prints its port, then runs `serve`. Killed by `stop` or at the
/// latest when dropped.
final class LoopbackNode {
    let process: Process
    let output = Pipe()
    let port: Int

    init(backlog: Int, prepare: String = "", serve: String) throws {
        let script =
            "import socket, time\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen(\(backlog))\n"
            + prepare + "print(s.getsockname()[1], flush=True)\n" + serve
        process = childProcess("/usr/bin/python3", ["-c", script])
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw LoopbackNodeFailed(output: line)
        }
        self.port = port
    }

    /// Ends the node; returns what it printed after its port.
    func stop() -> String {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    deinit { _ = stop() }
}

struct LoopbackNodeFailed: Error {
    var output: String
}
