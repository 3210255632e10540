import Foundation
import Testing

/// Fences that change while `run` runs (docs/running.md "Changing the fences while it runs"): the real
/// binary, a simulated receiver parked on a pseudo-terminal, and a fence file changed the ways
/// people change files: an editor's rename, a truncate-and-write in two slow halves, `cp` over it.
@Suite(.serialized) struct LiveFencesTests {
    /// Where the simulated receiver stays (it crawls back and forth over a metre).
    static let parked = (lat: 47.0, lon: 8.0)

    /// A FeatureCollection of circles: `near` ones around the parked receiver, the others 50 km away.
    static func fences(near: [String] = [], far: [String] = []) -> String {
        let features =
            near.map { circle($0, lon: parked.lon) } + far.enumerated().map { circle($1, lon: 8.7 + Double($0) * 0.01) }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    static func circle(_ id: String, lon: Double) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(lon),\#(parked.lat)]},"properties":{"radius":50}}"#
    }

    /// A receiver parked at `parked`, on a pseudo-terminal link in `folder`.
    static func parkedReceiver(in folder: URL) throws -> (link: String, simulator: BackgroundGPSFence) {
        let route = folder.appendingPathComponent("parked.geojson")
        try
            #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[8.0,47.0],[8.00001,47.0]]},"properties":{}}"#
            .write(to: route, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "115200", "--rate", "2", "--speed", "0.5", "--loop", "--link", link,
        ])
        _ = simulator.readFirstLine()
        return (link, simulator)
    }

    static func objects(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func fenceID(_ event: [String: Any]) -> String? { (event["fence"] as? [String: Any])?["id"] as? String }

    @Test func aWatchedFileIsSeenHoweverItIsSavedAndABadOneIsRefused() throws {
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fencesFile = folder.appendingPathComponent("fences.geojson")
        try Self.fences(far: ["far"]).write(to: fencesFile, atomically: true, encoding: .utf8)
        let (link, simulator) = try Self.parkedReceiver(in: folder)
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        let state = folder.appendingPathComponent("state.sqlite").path
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "115200", "--fences", fencesFile.path, "--state", state, "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("device_connected") }, "\(output.all)")
        #expect(waitForAFixOnFile(state), "the run never wrote a fix")

        // An editor's save: a new file renamed over the old one. "home" is around the receiver.
        let temporary = folder.appendingPathComponent(".fences.geojson.swp")
        try Self.fences(near: ["home"], far: ["far"]).write(to: temporary, atomically: false, encoding: .utf8)
        #expect(rename(temporary.path, fencesFile.path) == 0)
        #expect(
            output.wait { Self.objects($0).contains { $0["type"] as? String == "enter" } },
            "the new fence around the receiver is entered at once: \(output.all)")

        // Truncate and write, in two halves a tenth of a second apart: never loaded half-written.
        let handle = try FileHandle(forWritingTo: fencesFile)
        try handle.truncate(atOffset: 0)
        let whole = Data(Self.fences(near: ["home"], far: ["far2"]).utf8)
        try handle.write(contentsOf: whole.prefix(whole.count / 2))
        usleep(100_000)  // the gap a slow writer leaves, not a wait for a state
        try handle.write(contentsOf: whole.suffix(from: whole.count / 2))
        try handle.close()
        #expect(
            output.wait { types($0).filter { $0 == "registered" }.count == 3 }, "truncate-and-write: \(output.all)")

        // `cp` over the file: "home" goes while the receiver is inside it.
        let source = folder.appendingPathComponent("next.geojson")
        try Self.fences(far: ["far2"]).write(to: source, atomically: true, encoding: .utf8)
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [source.path, fencesFile.path]
        try copy.run()
        copy.waitUntilExit()
        #expect(output.wait { types($0).filter { $0 == "registered" }.count == 4 }, "cp: \(output.all)")

        // A broken file (a radius missing in feature 1) is refused, naming it; the fences stay.
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{}}]}"#
            .write(to: source, atomically: true, encoding: .utf8)
        let secondCopy = Process()
        secondCopy.executableURL = URL(fileURLWithPath: "/bin/cp")
        secondCopy.arguments = [source.path, fencesFile.path]
        try secondCopy.run()
        secondCopy.waitUntilExit()
        #expect(
            output.wait { $0.contains { $0.contains("reload failed, keeping the 1 fences loaded") } },
            "bad file: \(output.all)")

        run.signal(SIGTERM)
        #expect(run.finish().status == 0)
        output.finish()
        let events = Self.objects(output.all)
        let fenceEvents = events.filter {
            ["enter", "exit", "registered", "unregistered"].contains($0["type"] as? String)
        }
        let sequence = fenceEvents.map { event -> String in
            let type = event["type"] as? String ?? "?"
            if let fences = event["fences"] as? [String] { return type + ":" + fences.joined(separator: ",") }
            return type + ":" + (Self.fenceID(event) ?? "?")
        }
        #expect(
            sequence == [
                "registered:far",
                "registered:home", "enter:home",
                "unregistered:far", "registered:far2",
                "exit:home", "unregistered:home", "registered:",
            ], "\(sequence)")
        let enter = events.first { $0["type"] as? String == "enter" }
        #expect(enter?["initial"] as? Bool == true)
        let exit = events.first { $0["type"] as? String == "exit" }
        #expect(exit?["reason"] as? String == "removed")
        let errors = events.filter { $0["type"] as? String == "error" }.compactMap { $0["message"] as? String }
        #expect(errors.count == 1, "only the broken file is refused, never a half-written one: \(errors)")
        #expect(
            errors.first?.contains(fencesFile.path) == true && errors.first?.contains("radius") == true, "\(errors)")
        // The state file saw the same sequence as the console.
        let logged = try RunReloadAndCrashTests().eventLog(state)
        for event in fenceEvents { #expect(logged.contains(event["id"] as? String ?? "?")) }
    }
}

/// `--fences mqtt://...` against a real mosquitto (docs/running.md, "Fences from the broker"): the
/// retained set published with `mosquitto_pub -r`, replaced mid-run, a broken one refused, and a
/// restart with the broker stopped running on the last good set from the state file.
@Suite(.serialized) struct BrokerFencesTests {
    func publishRetained(_ broker: MosquittoBroker, _ topic: String, _ message: String) throws {
        try runTool(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", topic, "-m", message])
    }

    @Test func theRetainedSetIsTheFenceSetAndTheLastGoodOneOutlivesTheBroker() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let (link, simulator) = try LiveFencesTests.parkedReceiver(in: folder)
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        let topic = "fleet/fences"
        try publishRetained(broker, topic, LiveFencesTests.fences(far: ["far"]))
        let state = folder.appendingPathComponent("state.sqlite").path
        let fencesURL = "mqtt://127.0.0.1:\(broker.port)/\(topic)"
        let arguments = [
            "run", "--device", link, "--baud", "115200", "--fences", fencesURL, "--state", state, "--json",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/gpsfence/van",
        ]
        let run = try BackgroundGPSFence(arguments)
        let output = LineCollector(run.output.fileHandleForReading)
        func registrations(_ lines: [String]) -> [[String]] {
            LiveFencesTests.objects(lines).filter { $0["type"] as? String == "registered" }.map {
                $0["fences"] as? [String] ?? []
            }
        }
        #expect(output.wait { registrations($0).contains(["far"]) }, "the retained set: \(output.all)")
        #expect(output.wait { types($0).contains("device_connected") })
        #expect(waitForAFixOnFile(state), "the run never wrote a fix")

        // A new set published mid-run: "home", around the receiver, is entered at once.
        try publishRetained(broker, topic, LiveFencesTests.fences(near: ["home"], far: ["far"]))
        #expect(output.wait { types($0).contains("enter") }, "the new set: \(output.all)")

        // A broken one (feature 0 without a radius) is refused; the fences stay.
        try publishRetained(
            broker, topic,
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[8.0,47.0]},"properties":{}}]}"#
        )
        #expect(
            output.wait {
                $0.contains { $0.contains("fence set from the broker refused, keeping the 2 fences loaded") }
            },
            "the broken set: \(output.all)")
        run.signal(SIGTERM)
        #expect(run.finish().status == 0)
        output.finish()
        let events = LiveFencesTests.objects(output.all)
        #expect(registrations(output.all) == [[], ["far"], ["home"]], "only what arrived: \(output.all)")
        #expect(!types(output.all).contains("unregistered"), "nothing was taken away")
        let refusal = events.first { ($0["message"] as? String)?.contains("refused") == true }?["message"] as? String
        #expect(refusal?.contains(fencesURL) == true && refusal?.contains("radius") == true, "\(refusal ?? "")")
        #expect(broker.log.contains(" as gpsfence-"), "the broker's log names its clients")
        #expect(!broker.log.contains("-fences"), "one connection serves --mqtt and --fences for the same broker")

        // The broker is gone: a restart runs on the last good set, says so, and the receiver that
        // was inside "home" stays inside without a second enter.
        broker.stop()
        let restarting = Date()
        let restart = try BackgroundGPSFence(arguments)
        let restarted = LineCollector(restart.output.fileHandleForReading)
        #expect(restarted.wait { registrations($0).contains(["home", "far"]) }, "\(restarted.all)")
        #expect(restarted.wait { types($0).contains("device_connected") })
        #expect(waitForAFixOnFile(state, since: restarting), "the restarted run never wrote a fix")
        restart.signal(SIGTERM)
        let stopped = restart.finish()
        restarted.finish()
        #expect(stopped.status == 0)
        #expect(
            stopped.stderr.contains("running on the last good set from \(fencesURL) (2 fences"), "\(stopped.stderr)")
        #expect(!types(restarted.all).contains("enter"), "\(restarted.all)")
    }

    /// Without `--mqtt`, a connection of its own that only subscribes.
    @Test func withoutMQTTPublishingTheFencesComeOnAConnectionOfTheirOwn() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let folder = temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try publishRetained(broker, "depot/fences", LiveFencesTests.fences(far: ["a", "b"]))
        let run = try BackgroundGPSFence([
            "run", "--device", folder.appendingPathComponent("no-such-gps").path, "--baud", "9600", "--fences",
            "mqtt://127.0.0.1:\(broker.port)/depot/fences", "--state", folder.appendingPathComponent("s.sqlite").path,
            "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(
            output.wait {
                LiveFencesTests.objects($0).contains { ($0["fences"] as? [String]) == ["a", "b"] }
            }, "\(output.all)")
        run.signal(SIGTERM)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("no fence set from mqtt://127.0.0.1:\(broker.port)/depot/fences yet"))
        #expect(broker.log.contains("-fences"), "its own client id")
        #expect(
            try broker.retained("gpsfence/#", seconds: 1).isEmpty, "a fence-only connection publishes nothing")
    }

    @Test func aBadFenceURLIsBadInput() throws {
        let result = try runGPSFence([
            "run", "--device", "/dev/null", "--fences", "mqtt://127.0.0.1:1883/fleet/#", "--state",
            temporaryDirectory().appendingPathComponent("s.sqlite").path,
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--fences mqtt://127.0.0.1:1883/fleet/#") && result.stderr.contains("wildcard"))
    }
}
