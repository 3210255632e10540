import Foundation
import Platform
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// docs/fleet.md: a fleet on a 3-node NATS cluster (`--mqtt` and `--fences mqtt://` with the
/// nodes listed), judged by a real subscriber; a node is killed (SIGKILL) while the vehicles
/// publish, and nothing a vehicle printed may be lost, reordered or given a new id. `make test`
/// runs this suite alone, after the others: fifty vehicles and three nodes beside other test
/// processes would measure the machine rather than the failover.
@Suite struct ClusterFailoverTests {
    /// Fifty vehicles where the test process may use two processors or more; on one (`taskset -c
    /// 0`), fifty processes and a 3-node cluster do not keep up with their own deadlines, and the
    /// test measures the machine rather than the failover: 25 vehicles a processor, at most 50.
    static let fleetSize = min(50, 25 * usableProcessorCount())
    /// Two thirds of the fleet on the node that dies (34 of 50).
    static let onFirstNode = fleetSize * 34 / 50

    /// Fifty vehicles (`fleetSize`) on a 3-node NATS cluster, 34 of them on node 1, their fences
    /// from a retained set on the cluster. Node 1 is killed mid-run and restarted 15 s later; a
    /// new fence set is published on node 3 while it is down. A persistent subscriber on node 3 gets every event
    /// of every vehicle, once by id, in each vehicle's order; every vehicle runs on the new set,
    /// those that moved within 10 s of their move (or of the set's publication, if later), the
    /// others within 3 s of its publication.
    @Test func aClusterNodeDiesAndEveryVehicleGoesOnLosingNothing() throws {
        let cluster = try NATSCluster()
        let folder = temporaryDirectory()
        let road = try FleetVehicle.road(folder)
        try cluster.publishRetained("fleet/fences", FleetVehicle.fences(), node: 2)
        let central = try cluster.subscribe("fleet/+/event", node: 2, id: "central-\(getpid())")
        // Each vehicle's drive starts an hour after the one before (2026-02-03 10:15Z on), so no two
        // share an event time.
        let starts = ISO8601DateFormatter()
        let vehicles = try (0..<Self.fleetSize).map { index in
            let brokers = cluster.authority(from: index < Self.onFirstNode ? 0 : 1)
            return try FleetVehicle(
                name: "van-\(index)", folder: folder, road: road, fences: "mqtt://\(brokers)/fleet/fences",
                mqtt: "mqtt://\(brokers)/fleet/van-\(index)",
                start: starts.string(from: Date(timeIntervalSince1970: 1_770_113_700 + Double(index) * 3600)),
                extra: ["--stale", "30"])
        }
        func topic(_ index: Int) -> String { "fleet/van-\(index)/event" }
        #expect(
            central.lines.wait(timeout: 120) { _ in
                vehicles.indices.allSatisfy { eventIDs(central.payloads(topic($0))).count >= 4 }
            }, "before the kill: \(vehicles.map { $0.output.all.suffix(3) })")

        cluster.kill(0)
        let lateSet = FleetVehicle.fences(extra: "late")
        try cluster.publishRetained("fleet/fences", lateSet, node: 2)
        let published = Date()
        // When each node first hands the new set to a new subscription: a vehicle can take it only
        // from the node it is on. A node may hold a set published while another node is down only
        // once that node is back, which no vehicle can change (seen on this machine with node 1
        // kept down for 40 s: the 34 vehicles that moved to node 2 took the set 6 s after node 1
        // returned, 58 s after it was published, though every node's retained-message stream had
        // stored it).
        let held = Locked([Int: Date]())
        let watching = Locked(true)
        let ports = cluster.nodes.map(\.mqttPort)
        let watcher = Thread {
            while watching.withLock({ $0 }) {
                for (node, port) in ports.enumerated() where held.withLock({ $0[node] == nil }) {
                    let retained = (try? NATSCluster.retained("fleet/fences", port: port, seconds: 1)) ?? [:]
                    if retained["fleet/fences"] == lateSet { held.withLock { $0[node] = Date() } }
                }
                usleep(100_000)
            }
        }
        watcher.start()
        defer { watching.withLock { $0 = false } }
        // When each vehicle said it reached another node (and which), and when it ran on the new set.
        var moved: [Int: (at: Date, node: Int)] = [:]
        var newSet: [Int: Date] = [:]
        // The node a vehicle says it reached, once it has (its events and its fence set share the
        // connection: the same brokers).
        func nodeReached(_ vehicle: FleetVehicle) -> Int? {
            let reached = " is reachable again (on "
            guard let notice = vehicle.notices.all.last(where: { $0.contains(reached) }) else { return nil }
            return cluster.nodes.firstIndex { notice.contains(reached + "127.0.0.1:\($0.mqttPort))") }
        }
        // The node comes back 15 s after the new set: a time of the case, not a wait for a state.
        let restartAt = published.addingTimeInterval(15)
        var restarted = false
        let deadline = Date().addingTimeInterval(scaled(60))
        while Date() < deadline, newSet.count < vehicles.count || moved.count < Self.onFirstNode {
            if !restarted, Date() >= restartAt {
                try cluster.start(0)
                restarted = true
            }
            for (index, vehicle) in vehicles.enumerated() {
                let lines = vehicle.output.all.compactMap(jsonObject)
                if moved[index] == nil, let node = nodeReached(vehicle) { moved[index] = (Date(), node) }
                if newSet[index] == nil,
                    lines.contains(where: {
                        $0["type"] as? String == "registered"
                            && ($0["fences"] as? [Any])?.contains { "\($0)" == "late" } == true
                    })
                {
                    newSet[index] = Date()
                }
            }
            usleep(20_000)
        }
        let heldAt = held.withLock { $0 }
        #expect(Set(moved.keys).isSuperset(of: 0..<Self.onFirstNode), "moved: \(moved.keys.sorted())")
        #expect(newSet.count == vehicles.count, "on the new set: \(newSet.keys.sorted()); held by nodes: \(heldAt)")
        for (index, move) in moved {
            guard let ranOn = newSet[index] else { continue }
            // the vehicle's part: subscribing again after it moved until its node has the set
            let from = [move.at, published, heldAt[move.node] ?? .distantFuture].max()!
            let delay = ranOn.timeIntervalSince(from)
            #expect(
                delay <= 10,
                "van-\(index) ran on the new set \(delay) s after it moved and node \(move.node + 1) held it: \(heldAt)"
            )
        }
        // A vehicle that never left its node has the set as it is published: the fence set is
        // subscribed at QoS 0, not through a session's JetStream consumer that waits for the
        // cluster's new leaders (at QoS 1, 3 to 7 s on a quiet machine).
        for (index, ranOn) in newSet where moved[index] == nil {
            let delay = ranOn.timeIntervalSince(published)
            #expect(delay <= 3, "van-\(index), on its node throughout, ran on the new set \(delay) s after it came")
        }
        if !restarted {
            if Date() < restartAt { usleep(UInt32(restartAt.timeIntervalSinceNow * 1_000_000)) }
            try cluster.start(0)
        }
        // The fleet drives on for 4 s with the node back, so that what it prints includes events
        // made since: a time of the case.
        Thread.sleep(forTimeInterval: 4)

        let printed = vehicles.map(\.printed)
        // The receivers stop and the runs go on delivering what they queued, so the central
        // consumer (one message per acknowledgement, `max_ack_pending: 1`) catches up without
        // sharing the machine with a fleet still publishing 80 events a second.
        for vehicle in vehicles { vehicle.stopReceiver() }
        #expect(
            central.lines.wait(timeout: 300) { _ in
                vehicles.indices.allSatisfy {
                    Set(eventIDs(central.payloads(topic($0)))).isSuperset(of: printed[$0])
                }
            },
            "missing: \(vehicles.indices.map { Set(printed[$0]).subtracting(eventIDs(central.payloads(topic($0)))).count })"
        )
        for vehicle in vehicles { _ = vehicle.stop() }
        for (index, vehicle) in vehicles.enumerated() {
            let all = vehicle.printed
            let arrived = firstArrivals(eventIDs(central.payloads(topic(index))))
            #expect(Array(all.prefix(arrived.count)) == arrived, "van-\(index): once by id, in its order")
            #expect(printed[index].count >= 20, "van-\(index) ran: \(printed[index].count) events")
        }
    }
}
