import Foundation
import Testing

/// OwnTracks regions from `setWaypoints` commands (docs/mqtt.md, "OwnTracks regions"): published
/// with `mosquitto_pub` to a real mosquitto as the OwnTracks apps and Recorder send them, to a
/// real `run` reading a simulated receiver that lies still.
@Suite(.serialized) struct OwnTracksRegionTests {
    static let spot = (lat: 47.0, lon: 8.0)

    /// A `_type: cmd` `setWaypoints` message; `merge` puts the merging flag in the waypoints object.
    static func command(_ waypoints: [String], merge: Bool = false) -> String {
        let flag = merge ? #","merge":true"# : ""
        return #"{"_type":"cmd","action":"setWaypoints","waypoints":{"_type":"waypoints","waypoints":["#
            + waypoints.joined(separator: ",") + "]\(flag)}}"
    }

    static func waypoint(_ rid: String, _ desc: String, lat: Double, lon: Double, rad: Int) -> String {
        #"{"_type":"waypoint","desc":"\#(desc)","lat":\#(lat),"lon":\#(lon),"rad":\#(rad),"tst":1700000000,"rid":"\#(rid)"}"#
    }

    static func fenceIDs(_ event: [String: Any]) -> [String] { event["fences"] as? [String] ?? [] }

    static func events(_ output: LineCollector, _ type: String) -> [[String: Any]] {
        output.all.compactMap { jsonObject($0) }.filter { $0["type"] as? String == type }
    }

    static func entered(_ output: LineCollector) -> [String] {
        events(output, "enter").compactMap { ($0["fence"] as? [String: Any])?["id"] as? String }
    }

    /// The fences left because a command removed them (`exit` with `"reason":"removed"`), in order.
    static func removedExits(_ output: LineCollector) -> [String] {
        events(output, "exit").filter { $0["reason"] as? String == "removed" }.compactMap {
            ($0["fence"] as? [String: Any])?["id"] as? String
        }
    }

    @Test func setWaypointsReplacesMergesDeletesAndSurvivesARestart() throws {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("owntracks/#")
        let folder = temporaryDirectory()
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let route = try AnchorWatchTests.boat(
            folder, name: "still.gpx", start: Self.spot, restSeconds: 900, dragSeconds: 0)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence(["simulate", route, "--baud", "38400", "--rate", "2", "--link", link])
        _ = simulator.readFirstLine()
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        func start() throws -> (BackgroundGPSFence, LineCollector) {
            let run = try BackgroundGPSFence([
                "run", "--device", link, "--baud", "38400", "--fences",
                folder.appendingPathComponent("fences.geojson").path, "--state",
                folder.appendingPathComponent("state.sqlite").path, "--json",
                "--mqtt", "mqtt://127.0.0.1:\(broker.port)/boat", "--owntracks", "alice/boat",
                "--mqtt-location-interval", "0",
            ])
            return (run, LineCollector(run.output.fileHandleForReading))
        }
        let topic = "owntracks/alice/boat/cmd"
        let home = Self.waypoint("home", "Home", lat: Self.spot.lat, lon: Self.spot.lon, rad: 100)
        let work = Self.waypoint("work", "Work", lat: Self.spot.lat + 0.1, lon: Self.spot.lon, rad: 200)
        let club = Self.waypoint("club", "Club", lat: Self.spot.lat + 0.0002, lon: Self.spot.lon, rad: 50)

        var (run, output) = try start()
        #expect(output.wait { _ in !Self.events(output, "registered").isEmpty })
        // Replace: home (around the receiver) and work. Sent again until it is seen: the command is
        // not retained, and the run subscribes once it is connected.
        var seen = false
        for _ in 0..<20 where !seen {
            try broker.publish(topic, Self.command([home, work]))
            seen = output.wait(timeout: 1) { _ in Self.entered(output).contains("home") }
        }
        #expect(seen, "\(output.all)")
        let registered = Self.events(output, "registered").map(Self.fenceIDs)
        #expect(registered.contains(["home", "work"]), "\(registered)")
        #expect(Self.events(output, "enter").first?["initial"] as? Bool == true)
        #expect(
            subscriber.lines.wait(timeout: 10) { _ in
                subscriber.payloads("owntracks/alice/boat/event").contains {
                    jsonObject($0)?["rid"] as? String == "home" && jsonObject($0)?["event"] as? String == "enter"
                }
            }, "the region's transition is published as a marked fence's: \(subscriber.lines.all)")
        #expect(
            subscriber.lines.wait(timeout: 10) { _ in
                subscriber.payloads("owntracks/alice/boat/waypoints").contains { payload in
                    let rids = (jsonObject(payload)?["waypoints"] as? [[String: Any]])?.compactMap {
                        $0["rid"] as? String
                    }
                    return rids == ["home", "work"]
                }
            }, "\(subscriber.lines.all)")
        // The waypoints and the transitions keep the `tst` the command gave (when the app made
        // the waypoint), not when this run registered them.
        let published = subscriber.payloads("owntracks/alice/boat/waypoints").compactMap {
            jsonObject($0)?["waypoints"] as? [[String: Any]]
        }
        #expect(published.last?.map { $0["tst"] as? Int } == [1_700_000_000, 1_700_000_000], "\(published)")
        let homeEnter = subscriber.payloads("owntracks/alice/boat/event").compactMap { jsonObject($0) }.first {
            $0["rid"] as? String == "home"
        }
        #expect(homeEnter?["wtst"] as? Int == 1_700_000_000, "\(String(describing: homeEnter))")

        // Merge: club joins; home and work stay.
        try broker.publish(topic, Self.command([club], merge: true))
        #expect(output.wait(timeout: 10) { _ in Self.entered(output).contains("club") }, "\(output.all)")
        #expect(Self.events(output, "unregistered").isEmpty, "a merge removes nothing")
        // A change registers what arrived: the regions already there keep their state.
        #expect(Self.events(output, "registered").map(Self.fenceIDs).last == ["club"])

        // Invalid coordinates delete that rid (merging, so the others stay).
        let deleteHome =
            #"{"_type":"waypoint","desc":"Home","lat":1000,"lon":1000,"rad":100,"tst":1700000000,"rid":"home"}"#
        try broker.publish(topic, Self.command([deleteHome], merge: true))
        #expect(output.wait(timeout: 10) { _ in !Self.events(output, "unregistered").isEmpty }, "\(output.all)")
        #expect(Self.events(output, "unregistered").map(Self.fenceIDs) == [["home"]])
        // The receiver was inside home: it leaves it as the region goes, and the phone's app hears it.
        #expect(Self.removedExits(output) == ["home"], "\(output.all)")
        #expect(
            subscriber.lines.wait(timeout: 10) { _ in
                subscriber.payloads("owntracks/alice/boat/event").contains {
                    jsonObject($0)?["rid"] as? String == "home" && jsonObject($0)?["event"] as? String == "leave"
                }
            }, "\(subscriber.lines.all)")

        // Replace: only work is left.
        try broker.publish(topic, Self.command([work]))
        #expect(output.wait(timeout: 10) { _ in Self.events(output, "unregistered").count == 2 }, "\(output.all)")
        #expect(Self.events(output, "unregistered").map(Self.fenceIDs).last == ["club"])
        #expect(Self.events(output, "registered").map(Self.fenceIDs).last == [], "work was there already")
        #expect(Self.removedExits(output) == ["home", "club"], "club was around the receiver too")

        // A broken command is said, and changes nothing.
        try broker.publish(topic, #"{"_type":"cmd","action":"setWaypoints"}"#)
        #expect(
            output.wait(timeout: 10) { _ in
                Self.events(output, "error").contains { ($0["message"] as? String)?.contains(topic) == true }
            }, "\(output.all)")

        run.signal(SIGINT)
        #expect(run.finish().status == 0)
        output.finish()

        // A restart runs on the regions it was given.
        (run, output) = try start()
        #expect(
            output.wait(timeout: 15) { _ in Self.events(output, "registered").map(Self.fenceIDs).contains(["work"]) },
            "\(output.all)")
        let retained = try #require(jsonObject(try broker.retained("owntracks/#")["owntracks/alice/boat/waypoints"]))
        let kept = (retained["waypoints"] as? [[String: Any]])?.map { $0["tst"] as? Int }
        #expect(kept == [1_700_000_000], "the state file keeps each region's tst: \(retained)")
        run.signal(SIGINT)
        #expect(run.finish().status == 0)
        output.finish()
    }
}
