import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// docs/mqtt.md against a real mosquitto broker, judged by a real client (`mosquitto_sub`): the
/// real binary publishes, the broker is stopped and restarted, gpsfence is killed with SIGKILL.
@Suite(.serialized) struct MQTTTests {
    static func unixSeconds(_ text: String) -> Int {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return Int(formatter.date(from: text)!.timeIntervalSince1970)
    }

    static func expectedLines(_ capture: String) throws -> [[String: Any]] {
        try String(
            contentsOf: packageRoot.appendingPathComponent("captures/\(capture)/expected.jsonl"), encoding: .utf8
        )
        .split(separator: "\n").compactMap { jsonObject(String($0)) }
    }

    /// A scenario replayed at --speed max: every event on PREFIX/event, same ids, same order,
    /// before the process exits; then a subscriber that connects afterwards sees the retained
    /// present (fence states, status, location) and the OwnTracks messages carry their fields.
    @Test func replayDeliversEveryEventInOrderAndLeavesTheRetainedPresent() throws {
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("van/#")
        let owntracks = try broker.subscribe("owntracks/#")
        let fences = try OwnTracksTests.markedFences("bridge", ["bridge-1"])
        let result = try runGPSFence([
            "replay", "captures/bridge/capture.nmea", "--fences", fences, "--json", "--speed", "max",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)/van", "--owntracks", "alice/phone",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").map(String.init)
        let expected = try Self.expectedLines("bridge")
        #expect(types(printed) == expected.map { $0["type"] as! String })

        // Delivered before the exit: nothing more is waited for.
        let received = eventIDs(subscriber.payloads("van/event"))
        #expect(received == eventIDs(printed), "received \(subscriber.lines.all)")

        // The present, for a dashboard that connects later.
        let retained = try broker.retained("van/#")
        let bridge = try #require(jsonObject(retained["van/fence/bridge-1"]), "\(retained)")
        #expect(bridge["state"] as? String == "outside")
        #expect(bridge["since"] as? String == expected[3]["time"] as? String)
        #expect(bridge["name"] as? String == "Low bridge 10'6\"")
        let diner = try #require(jsonObject(retained["van/fence/diner"]))
        #expect(diner["state"] as? String == "outside")
        #expect(diner["since"] as? String == expected[0]["time"] as? String, "outside since it was registered")
        let status = try #require(jsonObject(retained["van/status"]))
        #expect(status["state"] as? String == "offline", "a replay that ended says so")
        let location = try #require(jsonObject(retained["van/location"]))
        #expect(location["lat"] is Double && location["lon"] is Double && location["time"] is String)
        #expect(retained["van/event"] == nil, "events are not retained")

        // OwnTracks: one transition per enter and exit, and the retained location.
        #expect(
            owntracks.lines.wait(timeout: 5) { lines in
                lines.filter { $0.hasPrefix("owntracks/alice/phone/event ") }.count == 2
            })
        let transitions = owntracks.payloads("owntracks/alice/phone/event").compactMap(jsonObject)
        #expect(transitions.map { $0["event"] as? String } == ["enter", "leave"])
        for (transition, event) in zip(transitions, [expected[2], expected[3]]) {
            #expect(transition["_type"] as? String == "transition")
            #expect(transition["rid"] as? String == "bridge-1")
            #expect(transition["desc"] as? String == "Low bridge 10'6\"")
            #expect(transition["tst"] as? Int == Self.unixSeconds(event["time"] as! String))
            #expect(transition["wtst"] as? Int == Self.unixSeconds(expected[0]["time"] as! String))
            #expect(transition["tid"] as? String == "ne", "the last two characters of the device")
            #expect(transition["t"] as? String == "c")
            #expect(transition["lat"] is Double && transition["lon"] is Double)
        }
        let ownLocation = try #require(
            jsonObject(try broker.retained("owntracks/alice/phone")["owntracks/alice/phone"]))
        #expect(ownLocation["_type"] as? String == "location")
        #expect(ownLocation["tid"] as? String == "ne")
        #expect(ownLocation["t"] as? String == "p")
        #expect(ownLocation["tst"] is Int)
        #expect(ownLocation["lat"] is Double)
        if let velocity = ownLocation["vel"] { #expect(velocity is Int, "vel is whole km/h") }
        if let accuracy = ownLocation["acc"] { #expect(accuracy is Int, "acc is whole metres") }
        // The time of the retained location is a fix time of the capture, within the replay.
        let tst = try #require(ownLocation["tst"] as? Int)
        #expect(tst >= Self.unixSeconds(expected[0]["time"] as! String))
    }

    /// OwnTracks transitions are as durable as the events (docs/mqtt.md): made while the broker is
    /// down by a replay that then exits, they wait in the state file, and the next replay with it
    /// publishes them, in order, each after its event.
    @Test func ownTracksTransitionsWaitInTheStateFileWhileTheBrokerIsDown() throws {
        let broker = try MosquittoBroker()
        broker.stop()
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let common = [
            "replay", "captures/bridge/capture.nmea", "--fences",
            try OwnTracksTests.markedFences("bridge", ["bridge-1"]),
            "--json", "--speed", "max", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/van", "--owntracks", "alice/phone",
            "--state", state,
        ]
        let away = try runGPSFence(common + ["--drain-timeout", "1"])
        #expect(away.status == 0, "\(away.stderr)")
        #expect(away.stderr.contains("remain queued in \(state)"), "\(away.stderr)")
        let expected = try Self.expectedLines("bridge")
        let made = away.stdout.split(separator: "\n").map(String.init)
        // (with an `error` saying the broker is unreachable among them)
        #expect(types(made).filter { $0 != "error" } == expected.map { $0["type"] as! String })

        try broker.start()
        let subscriber = try broker.subscribe("#")
        let back = try runGPSFence(common + ["--drain-timeout", "20"])
        #expect(back.status == 0, "\(back.stderr)")
        let delivered = subscriber.lines.all.filter {
            $0.hasPrefix("van/event ") || $0.hasPrefix("owntracks/alice/phone/event ")
        }
        // The first replay's events, in order (the error saying the broker was away joins them).
        let eventIDsDelivered = firstArrivals(eventIDs(subscriber.payloads("van/event")))
        #expect(Array(eventIDsDelivered.prefix(made.count)) == eventIDs(made), "\(delivered)")
        let transitions = subscriber.payloads("owntracks/alice/phone/event").compactMap(jsonObject)
        #expect(transitions.map { $0["event"] as? String } == ["enter", "leave"], "\(delivered)")
        for (transition, event) in zip(transitions, [expected[2], expected[3]]) {
            #expect(transition["rid"] as? String == "bridge-1")
            #expect(transition["tst"] as? Int == Self.unixSeconds(event["time"] as! String))
            #expect(transition["wtst"] as? Int == Self.unixSeconds(expected[0]["time"] as! String))
        }
        // Each transition right after its own event.
        for (k, line) in delivered.enumerated() where line.hasPrefix("owntracks/") {
            let previous = k > 0 ? jsonObject(String(delivered[k - 1].dropFirst("van/event ".count))) : nil
            #expect(["enter", "exit"].contains(previous?["type"] as? String), "\(delivered)")
        }
    }

    /// `mqtts://` with a private CA (`--mqtt-ca`), MQTT 5.
    @Test func tlsWithAPrivateCAAndMQTT5() throws {
        let broker = try MosquittoBroker(tls: true)
        let subscriber = try broker.subscribe("secure/#")
        let result = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--json",
            "--mqtt", "mqtts://localhost:\(broker.tlsPort!)/secure", "--mqtt-ca", broker.caFile!, "--mqtt-version", "5",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(types(printed) == (try Self.expectedLines("gym")).map { $0["type"] as! String })
        #expect(
            eventIDs(subscriber.payloads("secure/event")) == eventIDs(printed),
            "\(result.stderr) \(broker.log.suffix(2000))")

    }

    /// A live run fed by `simulate` on a pseudo-terminal; the broker stops in the middle and
    /// comes back; then gpsfence is killed with SIGKILL.
    ///
    /// The broker is down for 30 s: long enough for the reconnect backoff to reach its
    /// 30 s cap while a whole simulated pass of events waits in the state file.
    @Test func brokerOutageInALiveRunLosesNothingAndTheWillSaysOffline() throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let broker = try MosquittoBroker()
        let subscriber = try broker.subscribe("fleet/van-7/#", persistentID: "gpsfence-test-\(getpid())")

        func simulator(start: String) throws -> BackgroundGPSFence {
            try RunCommandTests.simulatedPass(route: route, link: link, start: start)
        }
        let first = try simulator(start: "2026-02-03T10:15:00Z")
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state",
            folder.appendingPathComponent("state.sqlite").path,
            "--json", "--stale", "1", "--mqtt", "mqtt://127.0.0.1:\(broker.port)/fleet/van-7",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "first pass: \(output.all)")
        #expect(subscriber.lines.wait { _ in eventIDs(subscriber.payloads("fleet/van-7/event")).count >= 3 })
        let online = try #require(jsonObject(try broker.retained("fleet/van-7/status")["fleet/van-7/status"]))
        #expect(online["state"] as? String == "online")

        broker.stop()
        _ = first.finish()
        let outageStart = Date()
        let second = try simulator(start: "2026-02-03T10:20:00Z")
        #expect(output.wait { types($0).filter { $0 == "exit" }.count == 2 }, "second pass: \(output.all)")
        _ = second.finish()
        // An outage of 30 s: a time of the case, not a wait for a state.
        let rest = 30 - Date().timeIntervalSince(outageStart)
        if rest > 0 { usleep(UInt32(rest * 1_000_000)) }
        let printedWhileDown = eventIDs(output.all)
        try broker.start()

        // Everything printed reaches the subscriber, in log order (a repeat is allowed).
        #expect(
            subscriber.lines.wait(timeout: 60) { _ in
                Set(eventIDs(subscriber.payloads("fleet/van-7/event"))).isSuperset(of: printedWhileDown)
            }, "after the restart: \(subscriber.lines.all.suffix(5))")
        let printed = eventIDs(output.all)
        let received = firstArrivals(eventIDs(subscriber.payloads("fleet/van-7/event")))
        #expect(Array(received.prefix(printedWhileDown.count)) == printedWhileDown)
        #expect(Array(printed.prefix(received.count)) == received, "same order as the log")
        // The outage was said once, and that the broker is back.
        let errors = output.all.compactMap(jsonObject).filter { $0["type"] as? String == "error" }.compactMap {
            $0["message"] as? String
        }
        #expect(errors.filter { $0.contains("mqtt broker") && $0.contains("reconnecting") }.count == 1, "\(errors)")
        // Good news is no `error` event (an automation on errors must not fire on it): it is said
        // on standard error (read below, once the run is gone).
        #expect(!errors.contains { $0.contains("reachable again") }, "\(errors)")

        // The fence state is retained: outside after the second exit.
        let yard = try #require(jsonObject(try broker.retained("fleet/van-7/fence/#")["fleet/van-7/fence/yard"]))
        #expect(yard["state"] as? String == "outside")
        #expect(yard["name"] as? String == "Yard")

        // kill -9: the broker publishes the last will.
        run.signal(SIGKILL)
        let killed = run.finish()
        #expect(killed.stderr.contains("is reachable again"), "\(killed.stderr)")
        #expect(
            subscriber.lines.wait(timeout: 15) { _ in
                subscriber.payloads("fleet/van-7/status").compactMap(jsonObject).last?["state"] as? String == "offline"
            }, "\(subscriber.payloads("fleet/van-7/status"))")
        let will = try #require(jsonObject(try broker.retained("fleet/van-7/status")["fleet/van-7/status"]))
        #expect(will["state"] as? String == "offline")
        #expect((will["client"] as? String)?.hasPrefix("gpsfence-") == true)
        #expect(online["client"] as? String == will["client"] as? String)
    }

    /// A broker that refuses the login: one `error` event that says so, retries with backoff,
    /// events kept in the state file and delivered, in order, once the password is right.
    @Test func refusedLoginIsSaidOnceAndTheEventsWait() throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let state = folder.appendingPathComponent("state.sqlite").path
        let broker = try MosquittoBroker(credentials: ("van", "s3cret:pw"))
        let subscriber = try broker.subscribe("login/#")
        let wrong = folder.appendingPathComponent("wrong")
        try "not-the-password\n".write(to: wrong, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: wrong.path)

        /// A pass of the drive with a run, stopped once `settled` holds for its output.
        func pass(start: String, mqtt: [String], until settled: ([String]) -> Bool) throws -> [String] {
            let simulator = try RunCommandTests.simulatedPass(route: route, link: link, start: start)
            let run = try BackgroundGPSFence(
                ["run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json"]
                    + ["--stale", "3600"] + mqtt)
            let output = LineCollector(run.output.fileHandleForReading)
            #expect(output.wait { types($0).contains("exit") }, "\(output.all)")
            _ = simulator.finish()
            // The receiver's going is the pass's last event: `settled` judges the output once it
            // is there (judged before, it could pass and the event come after, left in the outbox
            // by the stop). `--stale` keeps a `fix_lost` from following it.
            #expect(output.wait { types($0).contains("device_lost") }, "\(output.all)")
            #expect(waitUntil(timeout: 40) { settled(output.all) }, "\(output.all)")
            if mqtt.contains(where: { $0.contains("s3cret") }) {
                // The password typed in the URL is gone from the process list.
                let commandLine = try String(
                    contentsOfFile: "/proc/\(run.process.processIdentifier)/cmdline", encoding: .utf8)
                #expect(!commandLine.contains("s3cret"), "\(commandLine)")
                #expect(commandLine.contains("mqtt://van:"))
            }
            run.signal(SIGINT)
            let stopped = run.finish()
            output.finish()
            #expect(stopped.status == 0, "\(stopped.stderr)")
            return output.all
        }

        let refused = try pass(
            start: "2026-02-03T10:15:00Z",
            mqtt: [
                "--mqtt", "mqtt://van@127.0.0.1:\(broker.port)/login", "--mqtt-password-file", wrong.path,
            ]
        ) { _ in broker.log.components(separatedBy: "not authorised").count - 1 >= 3 }  // several attempts
        // (The receiver going away at the end of the pass is an error event of its own.)
        let errors = refused.compactMap(jsonObject).filter { $0["type"] as? String == "error" }.compactMap {
            $0["message"] as? String
        }
        .filter { $0.contains("mqtt") }
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("not authori") == true, "\(errors)")
        #expect(broker.log.components(separatedBy: "not authorised").count - 1 >= 2, "retried")
        #expect(subscriber.payloads("login/event").isEmpty)
        let pending = try runTool(
            "/usr/bin/sqlite3", [state, "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"])
        #expect(Int(pending.trimmingCharacters(in: .whitespacesAndNewlines)) == eventIDs(refused).count)

        // The password typed in the URL this time (percent-escaped ':'): the same target.
        let accepted = try pass(
            start: "2026-02-03T10:20:00Z", mqtt: ["--mqtt", "mqtt://van:s3cret%3Apw@127.0.0.1:\(broker.port)/login"]
        ) { lines in
            // Until every event of both passes is delivered.
            firstArrivals(eventIDs(subscriber.payloads("login/event"))).count >= eventIDs(refused).count
                + eventIDs(lines).count
        }
        // Every event in the log's order, but for any the stop left in the state file (an event
        // printed as the run stopped waits there for the next run; none is lost or reordered).
        let all = eventIDs(refused) + eventIDs(accepted)
        let left = Int(
            try runTool("/usr/bin/sqlite3", [state, "SELECT count(*) FROM outbox WHERE delivered_at IS NULL"])
                .trimmingCharacters(in: .whitespacesAndNewlines))
        let kept = try #require(left)
        #expect(kept <= 2, "left in the outbox at the stop: \(kept)")
        #expect(
            subscriber.lines.wait(timeout: 20) { _ in
                firstArrivals(eventIDs(subscriber.payloads("login/event"))).count >= all.count - kept
            })
        #expect(firstArrivals(eventIDs(subscriber.payloads("login/event"))) == Array(all.prefix(all.count - kept)))
    }

    /// Bad `--mqtt` input: exit status 2, the message names the option.
    @Test(arguments: [
        (["--mqtt", "mqtt//broker/x"], "--mqtt"),
        (["--mqtt", "amqp://broker/x"], "unknown scheme"),
        (["--mqtt", "mqtt://broker"], "missing topic prefix"),
        (["--mqtt", "mqtt://broker/a/+/b"], "wildcard"),
        (["--mqtt", "mqtts://broker/x", "--mqtt-ca", "/nonexistent/ca.pem"], "--mqtt-ca"),
        (["--mqtt", "mqtt://u@broker/x", "--mqtt-password-file", "/nonexistent/pw"], "--mqtt-password-file"),
        (["--mqtt", "mqtt://broker/x", "--mqtt-password-file", "/etc/hostname"], "--mqtt-password-file"),
        (["--mqtt", "mqtt://broker/x", "--owntracks", "justone"], "--owntracks"),
        (["--owntracks", "a/b"], "--mqtt"),
        (["--mqtt", "mqtt://broker/x", "--mqtt-version", "4"], "--mqtt-version"),
        (["--homeassistant"], "--homeassistant goes with --mqtt"),
        (["--mqtt", "mqtt://broker/x", "--homeassistant-prefix", "ha"], "--homeassistant-prefix goes with"),
        (["--mqtt", "mqtt://broker/x", "--homeassistant", "--homeassistant-prefix", "ha/#"], "--homeassistant-prefix"),
        (["--mqtt", "mqtt://broker/x", "--homeassistant-name", "van"], "--homeassistant-name goes with"),
        (["--mqtt", "mqtt://broker/x", "--homeassistant", "--homeassistant-name", " "], "--homeassistant-name"),
    ])
    func badMQTTOptions(_ options: [String], _ named: String) throws {
        let result = try runGPSFence(
            ["replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson"] + options)
        #expect(result.status == 2, "\(options): \(result.stderr)")
        #expect(result.stderr.contains(named), "\(options): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
