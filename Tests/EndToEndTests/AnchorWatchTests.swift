import Foundation
import Testing

/// The anchor watch (docs/running.md, "At anchor") with the real binary: `simulate` plays a boat
/// that lies at anchor and then drags, on a pseudo-terminal that `run --anchor` reads.
@Suite(.serialized) struct AnchorWatchTests {
    static let anchorage = (lat: 43.5, lon: 16.4)
    static let metre = 1 / 111_195.0

    /// A GPX of a boat swinging within 8 m of `start` for `restSeconds`, then (for `dragSeconds`)
    /// dragging north at 3 m/s; one point a second from 2026-07-01T03:MM:00Z, MM = `minute`. Each pass
    /// into one state file needs times of its own: an event's id comes from its time, type and fence,
    /// and the state file drops an id it has already logged (a replay of the same times is a duplicate).
    static func boat(
        _ folder: URL, name: String, start: (lat: Double, lon: Double), restSeconds: Int, dragSeconds: Int,
        minute: Int = 0
    ) throws -> String {
        var text = #"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"# + "\n"
        let east = metre / cos(start.lat * .pi / 180)
        for second in 0..<(restSeconds + dragSeconds) {
            let dragged = Double(max(0, second - restSeconds + 1)) * 3
            let swing = second < restSeconds ? 8.0 : 0
            let lat = start.lat + (swing * sin(Double(second) / 5) + dragged) * metre
            let lon = start.lon + swing * cos(Double(second) / 7) * east
            let time = String(format: "2026-07-01T03:%02d:%02dZ", minute + second / 60, second % 60)
            text += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>\(time)</time></trkpt>\n"
        }
        text += "</trkseg></trk></gpx>\n"
        let path = folder.appendingPathComponent(name)
        try text.write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    /// Distance in metres between two positions (small distances, equirectangular).
    static func metres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let dy = (a.lat - b.lat) / metre
        let dx = (a.lon - b.lon) / metre * cos(a.lat * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }

    static func position(_ event: [String: Any]) -> (lat: Double, lon: Double)? {
        guard let location = event["location"] as? [String: Any], let lat = location["lat"] as? Double,
            let lon = location["lon"] as? Double
        else { return nil }
        return (lat, lon)
    }

    /// One `run` over one pass of `route` (5 Hz, 5 times as fast as the GPX), stopped once the
    /// simulated receiver has gone; its JSON events.
    static func watch(route: String, folder: URL, extra: [String]) throws -> [[String: Any]] {
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--time-scale", "5", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let run = try BackgroundGPSFence(
            [
                "run", "--device", link, "--baud", "38400", "--fences",
                folder.appendingPathComponent("fences.geojson").path, "--state",
                folder.appendingPathComponent("state.sqlite").path, "--json",
            ] + extra)
        let output = LineCollector(run.output.fileHandleForReading)
        let played = simulator.finish()
        #expect(played.status == 0, "\(played.stderr)")
        #expect(output.wait { types($0).contains("device_lost") }, "\(output.all)")
        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        return output.all.compactMap { jsonObject($0) }
    }

    static func anchorEvents(_ events: [[String: Any]]) -> [[String: Any]] {
        events.filter { ($0["fence"] as? [String: Any])?["id"] as? String == "anchor" }
    }

    /// With `--homeassistant`, the anchor watch's sensors appear on the device: the distance to
    /// the anchor and the bearing from the boat to it, which after a drag north is about south.
    @Test func homeAssistantShowsTheDistanceAndTheBearingToTheAnchor() throws {
        let folder = temporaryDirectory()
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        let drag = try Self.boat(folder, name: "drag.gpx", start: Self.anchorage, restSeconds: 50, dragSeconds: 40)
        let broker = try MosquittoBroker()
        _ = try Self.watch(
            route: drag, folder: folder,
            extra: [
                "--anchor", "40", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/boats/sea-otter", "--homeassistant",
                "--mqtt-location-interval", "0",
            ])
        let retained = try broker.retained("#")
        for (key, id) in [
            ("anchor_distance", "sensor.sea_otter_anchor_distance"),
            ("anchor_bearing", "sensor.sea_otter_anchor_bearing"),
            ("anchor_max_distance", "sensor.sea_otter_anchor_max_distance"),
        ] {
            let config = jsonObject(retained["homeassistant/sensor/boats_sea-otter/\(key)/config"])
            #expect(config?["default_entity_id"] as? String == id, "\(retained.keys.sorted())")
            // A bearing is circular: Home Assistant's statistics would average 359° and 1° to 180°.
            #expect((config?["state_class"] == nil) == (key == "anchor_bearing"), "\(key): \(config ?? [:])")
        }
        let receiver = try #require(jsonObject(retained["boats/sea-otter/homeassistant/receiver"]))
        let distance = try #require(receiver["anchor_distance"] as? Double, "\(receiver)")
        let bearing = try #require((receiver["anchor_bearing"] as? NSNumber)?.doubleValue, "\(receiver)")
        #expect(distance > 50, "dragged about 120 m: \(receiver)")
        let largest = try #require(receiver["anchor_max_distance"] as? Double, "\(receiver)")
        #expect(largest >= distance - 0.01 && largest < 140, "\(receiver)")
        #expect(abs(bearing - 180) < 15, "the anchor is behind, south: \(receiver)")
    }

    @Test func aDraggingAnchorRaisesExitAndARestartKeepsTheAnchor() throws {
        let folder = temporaryDirectory()
        try #"{"type":"FeatureCollection","features":[]}"#.write(
            to: folder.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        // Long enough at rest for a `run` that starts late on a busy machine still to drop the anchor
        // before the drag: the receiver's clock runs at 1x from 03:00:00 while the GPX plays at 5x.
        // The drag lasts until the anchor's delay (22 s of the receiver's clock: 110 s of the GPX
        // at 5x) has passed with the boat beyond the circle.
        let drag = try Self.boat(folder, name: "drag.gpx", start: Self.anchorage, restSeconds: 50, dragSeconds: 140)

        // At anchor for 50 s (swinging 8 m), then dragging 420 m: enter at the drop, exit once dragged.
        let first = Self.anchorEvents(try Self.watch(route: drag, folder: folder, extra: ["--anchor", "40"]))
        #expect(first.map { $0["type"] as? String } == ["enter", "exit"], "\(first)")
        let enter = try #require(first.first)
        let exit = try #require(first.last)
        #expect(enter["initial"] as? Bool == true)
        #expect(enter["reason"] as? String == "added", "the anchor came to the boat; the run did not start there")
        let dropped = try #require(Self.position(enter))
        #expect(Self.metres(dropped, Self.anchorage) < 12, "dropped at the first fix (the boat swings 8 m each way)")
        let left = try #require(Self.position(exit))
        // Beyond the radius for the anchor's delay: never while the boat only swung.
        #expect(Self.metres(left, dropped) > 50, "exit at \(left)")
        let dragStart = MQTTTests.unixSeconds("2026-07-01T03:00:10.000Z")  // 50 s of GPX at 5x
        let exitTime = MQTTTests.unixSeconds(try #require(exit["time"] as? String))
        #expect(exitTime >= dragStart, "the time at rest passes without an exit")

        // Restarted where the boat drifted to (100 m north): the anchor stays where it was dropped,
        // so nothing is entered, and status shows it with the distance.
        let drifted = (lat: Self.anchorage.lat + 100 * Self.metre, lon: Self.anchorage.lon)
        let resting = try Self.boat(
            folder, name: "rest.gpx", start: drifted, restSeconds: 40, dragSeconds: 0, minute: 10)
        let second = try Self.watch(route: resting, folder: folder, extra: ["--anchor", "40"])
        #expect(Self.anchorEvents(second).isEmpty, "\(Self.anchorEvents(second))")
        let registered = try #require(second.first { $0["type"] as? String == "registered" })
        #expect((registered["fences"] as? [String]) == ["anchor"])
        let status = try runGPSFence([
            "status", "--state", folder.appendingPathComponent("state.sqlite").path, "--json",
        ])
        #expect(status.status == 0, "\(status.stderr)")
        let anchor = try #require(jsonObject(status.stdout)?["anchor"] as? [String: Any], "\(status.stdout)")
        let kept = (lat: try #require(anchor["lat"] as? Double), lon: try #require(anchor["lon"] as? Double))
        #expect(Self.metres(kept, dropped) < 0.01, "kept at \(kept), dropped at \(dropped)")
        #expect(anchor["radius"] as? Double == 40)
        let distance = try #require(anchor["distance"] as? Double)
        #expect(distance > 85 && distance < 115, "distance \(distance)")
        #expect(anchor["inside"] as? Bool == false)
        let text = try runGPSFence(["status", "--state", folder.appendingPathComponent("state.sqlite").path])
        #expect(text.stdout.contains("anchor "), "\(text.stdout)")

        // --reanchor drops it again, here.
        let later = try Self.boat(
            folder, name: "later.gpx", start: drifted, restSeconds: 40, dragSeconds: 0, minute: 20)
        let thirdRun = try Self.watch(route: later, folder: folder, extra: ["--anchor", "40", "--reanchor"])
        let third = Self.anchorEvents(thirdRun)
        #expect(third.map { $0["type"] as? String } == ["enter"], "\(thirdRun)")
        let redropped = try #require(third.first.flatMap(Self.position))
        #expect(Self.metres(redropped, drifted) < 12)
    }

    /// `--anchor-at` where the anchor went down, and the boat's first fix already 220 m from it (it
    /// dragged before the watch began): the anchor's `exit` and the alarm at that fix. No fence
    /// file is needed for an anchor watch alone.
    @Test func aFirstFixOutsideTheAnchorAtCircleRaisesTheAlarm() throws {
        let folder = temporaryDirectory()
        let away = (lat: Self.anchorage.lat + 220 * Self.metre, lon: Self.anchorage.lon)
        let route = try Self.boat(folder, name: "away.gpx", start: away, restSeconds: 60, dragSeconds: 0)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--time-scale", "5", "--link", link,
        ])
        _ = simulator.readFirstLine()
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--state", folder.appendingPathComponent("state.sqlite").path,
            "--json", "--anchor", "40", "--anchor-at", "\(Self.anchorage.lat),\(Self.anchorage.lon)", "--alarm",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        let rang = output.wait(timeout: 60) { types($0).contains("alarm") }
        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        simulator.signal(SIGINT)
        _ = simulator.finish()
        #expect(rang, "\(output.all) \(stopped.stderr)")
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let events = output.all.compactMap { jsonObject($0) }
        let exit = try #require(Self.anchorEvents(events).first { $0["type"] as? String == "exit" }, "\(events)")
        #expect(Self.metres(try #require(Self.position(exit)), away) < 12, "\(exit)")
        let alarm = try #require(events.first { $0["type"] as? String == "alarm" })
        #expect((alarm["cause"] as? [String: Any])?["type"] as? String == "exit", "\(alarm)")
        let distance = try #require(alarm["anchor_distance"] as? Double, "\(alarm)")
        #expect(distance > 200 && distance < 240, "\(alarm)")
    }

    @Test func anAnchorWatchNeedsNoFenceFileButAFenceWatchDoes() throws {
        let folder = temporaryDirectory()
        let file = folder.appendingPathComponent("not-a-device").path
        try "x\n".write(toFile: file, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let alone = try runGPSFence(["run", "--device", file, "--state", state])
        #expect(alone.status == 2, "\(alone.stderr)")
        #expect(alone.stderr.contains("--fences"), "\(alone.stderr)")
        // Past the arguments: the file is refused as a device, not for a missing fence file.
        let anchored = try runGPSFence(["run", "--device", file, "--state", state, "--anchor", "40"])
        #expect(anchored.status == 2, "\(anchored.stderr)")
        #expect(!anchored.stderr.contains("--fences <file>"), "\(anchored.stderr)")
        #expect(anchored.stderr.contains("this is a file, not a device"), "\(anchored.stderr)")
    }

    @Test func anchorOptionsAreCheckedBeforeAnythingStarts() throws {
        for (arguments, words) in [
            (["--anchor", "0"], "--anchor must be more than 0 and at most 20015115 metres, not 0"),
            (["--anchor-at", "43.5,16.4"], "--anchor-at goes with --anchor"),
            (
                ["--anchor", "40", "--anchor-at", "95,16.4"],
                "--anchor-at wants a position as LAT,LON in degrees (e.g. 47.3769,8.5417), not '95,16.4'"
            ),
            (["--anchor", "40", "--anchor-at", "43.5,16.4", "--reanchor"], "choose one"),
            (["--anchor-warn", "80"], "--anchor-warn goes with --anchor RADIUS"),
            (
                ["--anchor", "40", "--anchor-warn", "100"],
                "--anchor-warn must be a percentage above 0 and below 100, not 100.0"
            ),
        ] {
            let result = try runGPSFence(
                ["run", "--device", "/dev/null", "--fences", "captures/gym/fences.geojson"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
    }
}
