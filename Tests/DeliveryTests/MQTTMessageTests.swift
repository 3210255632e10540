import Foundation
import NMEA
import Testing

@testable import Delivery
@testable import Events
@testable import Fences

/// The `--mqtt` options and the docs/mqtt.md payloads, checked against values worked out by hand.
@Suite struct MQTTMessageTests {
    @Test func urlPartsDefaultsAndTheTargetWithoutPassword() throws {
        let plain = try #require(try MQTTConfiguration.parse(url: "mqtt://broker.local/fleet/van-7"))
        #expect(plain.brokers == [MQTTBroker(host: "broker.local", port: 1883)])
        #expect(!plain.usesTLS && plain.prefix == "fleet/van-7")
        #expect(plain.target == "mqtt://broker.local:1883/fleet/van-7")

        let secure = try #require(try MQTTConfiguration.parse(url: "mqtts://van:p%40ss@10.0.0.2/gps"))
        #expect(secure.brokers == [MQTTBroker(host: "10.0.0.2", port: 8883)] && secure.usesTLS)
        #expect(secure.username == "van" && secure.password == "p@ss")
        #expect(secure.target == "mqtts://van@10.0.0.2:8883/gps", "no password in the outbox key or messages")
        #expect(MQTTConfiguration.redacted("mqtts://van:p%40ss@10.0.0.2/gps") == "mqtts://van:***@10.0.0.2/gps")

        #expect(try MQTTConfiguration.parse(url: nil) == nil)
    }

    /// A cluster's nodes in one URL: each with its port or the scheme's, in the URL's order, the
    /// user and password once for all, and the target naming them all.
    @Test func severalBrokersInOneURL() throws {
        let cluster = try #require(
            try MQTTConfiguration.parse(url: "mqtts://van:p%40ss@node1:8884,Node2,[fd00::3]:9000/fleet/van-7"))
        #expect(
            cluster.brokers == [
                MQTTBroker(host: "node1", port: 8884), MQTTBroker(host: "Node2", port: 8883),
                MQTTBroker(host: "fd00::3", port: 9000),
            ])
        #expect(cluster.usesTLS && cluster.username == "van" && cluster.password == "p@ss")
        #expect(cluster.prefix == "fleet/van-7")
        #expect(cluster.target == "mqtts://van@node1:8884,Node2:8883,[fd00::3]:9000/fleet/van-7")
        #expect(
            MQTTConfiguration.redacted("mqtt://van:pw@a:1,b:2/p") == "mqtt://van:***@a:1,b:2/p",
            "the password is hidden whatever follows it")
        let twoPorts = try #require(try MQTTConfiguration.parse(url: "mqtt://127.0.0.1:1883,127.0.0.1:1884/p"))
        #expect(twoPorts.brokers.map(\.port) == [1883, 1884])
    }

    @Test(arguments: [
        ("mqtt://a:1883,/p", "broker 2 of the list is empty"), ("mqtt://,b/p", "broker 1 of the list is empty"),
        ("mqtt://a,b:70000/p", "broker 2 'b:70000': port 70000 out of range"),
        ("mqtt://b,B:1883/p", "broker B:1883 is listed twice"), ("mqtt://a,b c/p", "broker 2 'b c': not HOST[:PORT]"),
        ("mqtt://a,b/p/#", "wildcard"), ("mqtt://a,b", "missing topic prefix"),
    ])
    func badBrokerListsNameTheBroker(_ url: String, _ words: String) {
        do {
            _ = try MQTTConfiguration.parse(url: url)
            Issue.record("\(url) accepted")
        } catch {
            #expect(error.message.hasPrefix("--mqtt \(url): "), "\(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func passwordFileFirstLineAndItsRules() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try "s3cret\nignored\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let configuration = try #require(try MQTTConfiguration.parse(url: "mqtt://van@h/p", passwordFile: file.path))
        #expect(configuration.password == "s3cret")
        #expect(throws: MQTTConfigurationError.self) {
            try MQTTConfiguration.parse(url: "mqtt://h/p", passwordFile: file.path)
        }
        #expect(throws: MQTTConfigurationError.self) {
            try MQTTConfiguration.parse(url: "mqtt://van:x@h/p", passwordFile: file.path)
        }
    }

    /// `GPSFENCE_MQTT_PASSWORD` serves a URL that names a user and has no password from elsewhere.
    @Test func passwordFromTheEnvironmentComesLast() throws {
        let secrets = SecretSources(mqttPassword: "from-env")
        let fromEnvironment = try #require(try MQTTConfiguration.parse(url: "mqtt://van@h/p", secrets: secrets))
        #expect(fromEnvironment.password == "from-env")
        let fromURL = try #require(try MQTTConfiguration.parse(url: "mqtt://van:typed@h/p", secrets: secrets))
        #expect(fromURL.password == "typed")
        let anonymous = try #require(try MQTTConfiguration.parse(url: "mqtt://h/p", secrets: secrets))
        #expect(anonymous.password == nil)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try "from-file\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: file.path)
        let fromFile = try #require(
            try MQTTConfiguration.parse(url: "mqtt://van@h/p", passwordFile: file.path, secrets: secrets))
        #expect(fromFile.password == "from-file")
    }

    /// A password file other users may read is refused: the message names it, its mode and the fix.
    @Test func aWorldReadablePasswordFileIsRefused() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pw-\(UUID().uuidString)")
        try "s3cret\n".write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        do {
            _ = try MQTTConfiguration.parse(url: "mqtt://van@h/p", passwordFile: file.path)
            Issue.record("a world-readable password file was accepted")
        } catch {
            #expect(error.message.hasPrefix("--mqtt-password-file: '\(file.path)'"), "\(error.message)")
            #expect(error.message.contains("mode 0644") && error.message.contains("chmod 600 \(file.path)"))
        }
    }

    @Test(arguments: [
        ("http://h/p", "unknown scheme"), ("mqtt://h", "missing topic prefix"), ("mqtt://h/", "missing topic prefix"),
        ("mqtt://h/a/+/b", "wildcard"), ("mqtt://h/a/", "ends with"), ("mqtt:///p", "no broker host"),
        ("mqtt://h:70000/p", "--mqtt"), ("mqtt://h/home/#", "wildcard"), ("mqtt://h/#", "wildcard"),
    ])
    func badURLsNameTheOption(_ url: String, _ words: String) {
        do {
            _ = try MQTTConfiguration.parse(url: url)
            Issue.record("\(url) accepted")
        } catch {
            #expect(error.message.hasPrefix("--mqtt "), "\(error.message)")
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func ownTracksIdentityAndTrackerID() throws {
        let configuration = try #require(try MQTTConfiguration.parse(url: "mqtt://h/p", ownTracks: "alice/pixel7"))
        #expect(configuration.ownTracks == OwnTracksIdentity(user: "alice", device: "pixel7", tid: "l7"))
        #expect(configuration.ownTracks?.topic == "owntracks/alice/pixel7")
        let chosen = try #require(
            try MQTTConfiguration.parse(url: "mqtt://h/p", ownTracks: "alice/pixel7", ownTracksTID: "AP"))
        #expect(chosen.ownTracks?.tid == "AP")
        #expect(throws: MQTTConfigurationError.self) {
            try MQTTConfiguration.parse(url: "mqtt://h/p", ownTracks: "alice")
        }
        #expect(throws: MQTTConfigurationError.self) {
            try MQTTConfiguration.parse(url: "mqtt://h/p", ownTracks: "a/b/c")
        }
        #expect(throws: MQTTConfigurationError.self) { try MQTTConfiguration.parse(url: nil, ownTracks: "a/b") }
    }

    @Test func clientIDIsStablePerStateFileAndShortEnoughForAnyBroker() {
        let a = MQTTConfiguration.clientID(statePath: "/var/lib/gpsfence/state.sqlite")
        #expect(a == MQTTConfiguration.clientID(statePath: "/var/lib/gpsfence/./state.sqlite"))
        #expect(a != MQTTConfiguration.clientID(statePath: "/var/lib/gpsfence/other.sqlite"))
        #expect(a.hasPrefix("gpsfence-") && a.count <= 23)
    }

    @Test func fenceTopicsAreOneLevelWhateverTheID() {
        #expect(MQTTMessages.fenceTopic(prefix: "p", id: .string("bridge-1")) == "p/fence/bridge-1")
        #expect(MQTTMessages.fenceTopic(prefix: "p", id: .string("a/b+c#d%")) == "p/fence/a%2Fb%2Bc%23d%25")
        #expect(MQTTMessages.fenceTopic(prefix: "p", id: .number("12")) == "p/fence/12")
    }

    @Test func ownTracksUnitsAreWholeKilometresPerHourMetresAndSeconds() throws {
        // 2026-02-03T10:15:40.600Z: 20 487 days after 1970-01-01, plus 36 940.6 s.
        let time = UTCTime(millisecondsSinceEpoch: (20_487 * 86_400 + 36_940) * 1000 + 600)
        let fix = Fix(
            time: time, timeOfDay: TimeOfDay(milliseconds: 36_940_600), latitude: 47.3, longitude: 8.5, altitude: 412.6,
            speed: 13.9, track: 271.4, mode: .threeD, accuracy: 4.5)
        let payload = try #require(jsonObject(MQTTMessages.ownTracksLocation(fix, time: time, tid: "l7", inside: [])))
        #expect(payload["_type"] as? String == "location")
        #expect(payload["tst"] as? Int == 1_770_113_740, "whole seconds, rounded down")
        #expect(payload["vel"] as? Int == 50, "13.9 m/s is 50.04 km/h")
        #expect(payload["acc"] as? Int == 5, "4.5 m rounds to 5")
        #expect(payload["alt"] as? Int == 413)
        #expect(payload["cog"] as? Int == 271)
        #expect(payload["t"] as? String == "p" && payload["tid"] as? String == "l7")
        #expect((payload["inregions"] as? [String]) == [] && (payload["inrids"] as? [String]) == [])
    }

    /// Home Assistant drops a location without `acc` or with `acc` 0.
    @Test func ownTracksAccuracyIsAtLeastOneMetreAndRequired() throws {
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_740_000)
        var fix = Fix(
            time: time, timeOfDay: TimeOfDay(milliseconds: 36_940_000), latitude: 47.123456789, longitude: 8.5,
            altitude: nil, speed: nil, track: nil, mode: .threeD, accuracy: 0.3)
        let sharp = try #require(
            jsonObject(MQTTMessages.ownTracksLocation(fix, time: time, tid: "l7", inside: [])))
        #expect(sharp["acc"] as? Int == 1)
        let latitude = try #require(sharp["lat"] as? Double)
        #expect(abs(latitude - 47.123456789) <= 1e-7, "positions at the JSON writer's position precision")
        fix.accuracy = nil
        #expect(MQTTMessages.ownTracksLocation(fix, time: time, tid: "l7", inside: []) == nil)
    }

    @Test func ownTracksLocationNamesTheRegionsItIsIn() throws {
        let time = UTCTime(millisecondsSinceEpoch: 1_770_113_740_000)
        let fix = Fix(
            time: time, timeOfDay: TimeOfDay(milliseconds: 36_940_000), latitude: 47.3, longitude: 8.5,
            altitude: nil, speed: nil, track: nil, mode: .threeD, accuracy: 5)
        let regions = [MQTTMessages.OwnTracksRegion(rid: "home", desc: "Home \"sweet\""), .init(rid: "7", desc: "7")]
        let payload = try #require(
            jsonObject(MQTTMessages.ownTracksLocation(fix, time: time, tid: "l7", inside: regions)))
        #expect(payload["inregions"] as? [String] == ["Home \"sweet\"", "7"])
        #expect(payload["inrids"] as? [String] == ["home", "7"])
    }

    /// Locations wait behind transitions not yet acknowledged, newest wins per gap, and go out
    /// right after the transition they follow.
    @Test func ownTracksLocationsWaitBehindTransitions() {
        let order = OwnTracksOrder()
        #expect(order.location([1]) == [1], "nothing waiting: at once")
        order.transitionCommitted("enter")
        #expect(order.location([2]) == nil)
        #expect(order.location([3]) == nil)
        order.transitionCommitted("leave")
        #expect(order.location([4]) == nil)
        #expect(order.transitionDelivered("enter") == [[3]], "the newest location between enter and leave")
        #expect(order.location([5]) == nil)
        #expect(order.transitionDelivered("leave") == [[5]])
        #expect(order.location([6]) == [6])
        // Delivered before the engine thread said it committed it: nothing waits for it.
        #expect(order.transitionDelivered("early") == [])
        order.transitionCommitted("early")
        #expect(order.location([7]) == [7])
        // A previous run's rows: held until the outbox is seen empty.
        order.holdForBacklog()
        #expect(order.location([8]) == nil)
        #expect(order.caughtUp() == [[8]])
        #expect(order.location([9]) == [9])
    }

    /// A position with 9 significant decimals, as 7 decimals of a minute give (docs/formats.md).
    static let precise = Fix(
        time: UTCTime(millisecondsSinceEpoch: 1_770_113_740_000), timeOfDay: TimeOfDay(milliseconds: 36_940_000),
        latitude: 53.801416123, longitude: -1.550874567, altitude: 412.6, speed: 13.9, track: 271.4, mode: .threeD,
        accuracy: 4.5)

    @Test func locationCarriesThePositionAtNineDecimals() {
        let text = MQTTMessages.location(Self.precise, time: Self.precise.time!)
        #expect(text.contains(#""lat":53.801416123,"lon":-1.550874567"#), "\(text)")
    }

    @Test func ownTracksLocationCarriesThePositionAtNineDecimals() throws {
        let text = try #require(
            MQTTMessages.ownTracksLocation(Self.precise, time: Self.precise.time!, tid: "l7", inside: []))
        #expect(text.contains(#""lat":53.801416123,"lon":-1.550874567"#), "\(text)")
    }

    @Test func ownTracksTransitionCarriesThePositionAtNineDecimals() throws {
        let fences = try FenceSet.parse(fencesJSON)
        var enter = enterEvent(fences).event
        enter.location = GeofenceEvent.Location(
            latitude: 53.801416123, longitude: -1.550874567, accuracy: 4.5, speed: 25, track: 90)
        let text = try #require(
            MQTTMessages.ownTracksTransition(
                enter, fences: fences, registered: UTCTime(millisecondsSinceEpoch: 1_770_113_700_000), tid: "ne"))
        #expect(text.contains(#""lat":53.801416123,"lon":-1.550874567"#), "\(text)")
    }

    @Test func transitionsOnlyForEnterAndExit() throws {
        let fences = try FenceSet.parse(fencesJSON)
        let registered = UTCTime(millisecondsSinceEpoch: 1_770_113_700_000)
        let enter = enterEvent(fences).event
        let text = try #require(
            MQTTMessages.ownTracksTransition(enter, fences: fences, registered: registered, tid: "ne"))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(payload["event"] as? String == "enter" && payload["rid"] as? String == "b-1")
        #expect(payload["desc"] as? String == hostileName)
        #expect(payload["tst"] as? Int == 1_770_113_740 && payload["wtst"] as? Int == 1_770_113_700)
        var exit = enter
        exit.payload = .exit(GeofenceEvent.Exit(fence: 0))
        #expect(
            MQTTMessages.ownTracksTransition(exit, fences: fences, registered: registered, tid: "ne")?.contains(
                #""event":"leave""#) == true)
        var dwell = enter
        dwell.payload = .dwell(GeofenceEvent.Dwell(fence: 0, enterTime: registered, duration: 40))
        #expect(MQTTMessages.ownTracksTransition(dwell, fences: fences, registered: registered, tid: "ne") == nil)
    }
}

private func jsonObject(_ text: String?) -> [String: Any]? {
    text.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}
