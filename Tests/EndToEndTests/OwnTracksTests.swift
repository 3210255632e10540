import Foundation
import Testing

/// OwnTracks messages that Home Assistant's OwnTracks integration can follow (docs/mqtt.md),
/// against a real mosquitto, judged by a real `mosquitto_sub` that sees the broker's order.
@Suite(.serialized) struct OwnTracksTests {
    /// A copy of a capture's fence file in a private folder, with `"owntracks": true` (or another
    /// mark) in the properties of the fences named.
    static func markedFences(_ capture: String, _ ids: [String], mark: String = "owntracks") throws -> String {
        let source = packageRoot.appendingPathComponent("captures/\(capture)/fences.geojson")
        var collection = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
        var features = try #require(collection["features"] as? [[String: Any]])
        for k in features.indices where ids.contains(String(describing: features[k]["id"] ?? "")) {
            var properties = features[k]["properties"] as? [String: Any] ?? [:]
            properties[mark] = true
            features[k]["properties"] = properties
        }
        collection["features"] = features
        let path = temporaryDirectory().appendingPathComponent("fences.geojson")
        try JSONSerialization.data(withJSONObject: collection).write(to: path)
        return path.path
    }

    /// `speed` 300 for a test that counts locations: a location made while a transition waits for
    /// its PUBACK is held, newest wins, so at `max` a replay outruns the broker's round trips (43
    /// locations of 1,301 fixes with the release build; the debug build, slower, got past 100 until
    /// a loaded CI machine made its round trips slower too).
    static func replayGym(_ broker: MosquittoBroker, fences: String, speed: String = "max") throws -> CommandResult {
        try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", fences, "--json", "--speed", speed,
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/van", "--owntracks", "alice/phone",
            "--mqtt-location-interval", "0",
        ])
    }

    /// The gym fence marked: its enter and leave reach the broker between the locations of the
    /// fixes before and after them (never overtaken by a later location, never held behind one),
    /// every location has `acc` > 0 and says whether it is in the region, and the region is
    /// published as a retained waypoint.
    @Test func transitionsAndLocationsArriveInTheOrderOfTheirFixes() throws {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("owntracks/#")
        let fences = try Self.markedFences("gym", ["gym"])
        let result = try Self.replayGym(broker, fences: fences, speed: "300")
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").compactMap { jsonObject(String($0)) }
        let enter = try #require(printed.first { $0["type"] as? String == "enter" })
        let exit = try #require(printed.first { $0["type"] as? String == "exit" })
        let enterTime = MQTTTests.unixSeconds(enter["time"] as! String)
        let exitTime = MQTTTests.unixSeconds(exit["time"] as! String)

        #expect(
            subscriber.lines.wait(timeout: 5) { $0.filter { $0.hasPrefix("owntracks/alice/phone/event ") }.count == 2 })
        // The broker's order: every message on the location and event topics, as they arrived.
        var stream: [(transition: String?, tst: Int, message: [String: Any])] = []
        for line in subscriber.lines.all {
            for (topic, isTransition) in [("owntracks/alice/phone/event ", true), ("owntracks/alice/phone ", false)]
            where line.hasPrefix(topic) {
                let message = try #require(jsonObject(String(line.dropFirst(topic.count))))
                let tst = try #require(message["tst"] as? Int)
                stream.append((isTransition ? message["event"] as? String : nil, tst, message))
            }
        }
        let transitions = stream.enumerated().filter { $0.element.transition != nil }
        #expect(transitions.map(\.element.transition) == ["enter", "leave"])
        #expect(transitions.map(\.element.tst) == [enterTime, exitTime])
        for (position, transition) in transitions {
            let before = stream[..<position].filter { $0.transition == nil }.map(\.tst)
            let after = stream[(position + 1)...].filter { $0.transition == nil }.map(\.tst)
            #expect(before.allSatisfy { $0 <= transition.tst }, "a later location overtook \(transition.transition!)")
            #expect(after.allSatisfy { $0 >= transition.tst }, "\(transition.transition!) was held behind locations")
            #expect(!after.isEmpty, "locations go on after \(transition.transition!)")
        }
        let locations = stream.filter { $0.transition == nil }
        #expect(locations.count > 100, "every usable fix with --mqtt-location-interval 0")
        for location in locations {
            let accuracy = try #require(location.message["acc"] as? Int)
            #expect(accuracy > 0)
            let regions = try #require(location.message["inregions"] as? [String])
            let rids = try #require(location.message["inrids"] as? [String])
            let inside = location.tst >= enterTime && location.tst < exitTime
            #expect(regions == (inside ? ["Iron Temple gym"] : []), "at \(location.tst)")
            #expect(rids == (inside ? ["gym"] : []), "at \(location.tst)")
        }

        // What Home Assistant finds when it connects later: the last location, and the region.
        let retained = try broker.retained("owntracks/#")
        let last = try #require(jsonObject(retained["owntracks/alice/phone"]))
        #expect(last["tst"] as? Int == locations.map(\.tst).max())
        let waypoints = try #require(jsonObject(retained["owntracks/alice/phone/waypoints"]), "\(retained.keys)")
        #expect(waypoints["_type"] as? String == "waypoints")
        let list = try #require(waypoints["waypoints"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["_type"] as? String == "waypoint")
        #expect(list.first?["rid"] as? String == "gym" && list.first?["desc"] as? String == "Iron Temple gym")
        #expect(list.first?["rad"] as? Int == 40)
        #expect(list.first?["lat"] as? Double == 40.741895 && list.first?["lon"] as? Double == -73.989308)
    }

    /// An unmarked fence is not an OwnTracks region: no transitions (which would freeze Home
    /// Assistant's tracker while inside), no `inregions`, no waypoint; locations still flow.
    @Test func unmarkedFencesSendNoTransitions() throws {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("owntracks/#")
        let result = try Self.replayGym(broker, fences: "captures/gym/fences.geojson")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(types(result.stdout.split(separator: "\n").map(String.init)).contains("enter"))
        let locations = subscriber.payloads("owntracks/alice/phone").compactMap(jsonObject)
        #expect(locations.count > 100)
        #expect(locations.allSatisfy { ($0["inregions"] as? [String]) == [] && ($0["inrids"] as? [String]) == [] })
        #expect(
            subscriber.payloads("owntracks/alice/phone/event").isEmpty,
            "\(subscriber.payloads("owntracks/alice/phone/event"))")
        let waypoints = try #require(jsonObject(try broker.retained("owntracks/#")["owntracks/alice/phone/waypoints"]))
        #expect((waypoints["waypoints"] as? [Any])?.isEmpty == true)
    }
}
