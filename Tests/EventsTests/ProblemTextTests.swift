import Fences
import Platform
import Testing

@testable import Events

/// The words of the problems sinks and the engine report: each written here as people read it,
/// so that a change of wording is a change of this file too.
@Suite struct ProblemTextTests {
    static let missing = SpawnError(rawValue: 2)
    static func noTerminal() throws -> FileCallError {
        do {
            _ = try openTerminalForWriting("/nonexistent/tty")
        } catch {
            return error
        }
        throw CancellationError()
    }

    @Test func spokenAlerts() {
        #expect(
            Problem.alert(.say(.notInstalled(program: "espeak-ng"))).text
                == "--say: espeak-ng is not installed or not executable (Debian: apt-get install espeak-ng); "
                + "spoken alerts are off")
        #expect(
            Problem.alert(.say(.notInstalled(program: "piper"))).text
                == "--say: piper is not installed or not executable; spoken alerts are off")
        #expect(
            Problem.alert(.say(.dropped(waiting: 16, utterance: "Entering Home"))).text
                == "--say: 16 alerts are waiting to be spoken; 'Entering Home' was dropped")
        #expect(
            Problem.alert(.say(.notSpokenAtStop(utterance: "Leaving Home"))).text
                == "--say: 'Leaving Home' was not spoken: gpsfence is stopping")
        let run = { (cause: ProgramRunFailure.Cause) in
            Problem.alert(.say(.run(ProgramRunFailure(program: "espeak-ng", cause: cause)))).text
        }
        #expect(run(.couldNotStart(Self.missing)) == "--say: espeak-ng could not start: No such file or directory")
        #expect(run(.ended(ExitStatus(rawValue: 3 << 8))) == "--say: espeak-ng exited with status 3")
        #expect(run(.ended(ExitStatus(rawValue: 9))) == "--say: espeak-ng was killed by signal 9")
        #expect(run(.timedOut(limit: 30)) == "--say: espeak-ng took longer than 30 s and was killed")
    }

    @Test func notificationsAndTheBell() throws {
        #expect(
            Problem.alert(.notify(.noDesktopSession)).text
                == "--notify: no desktop session (no D-Bus session bus, no display); notifications are off")
        #expect(
            Problem.alert(.notify(.notInstalled)).text
                == "--notify: notify-send is not installed (Debian: apt-get install libnotify-bin); "
                + "notifications are off")
        #expect(
            Problem.alert(.notify(.notSentAtStop)).text == "--notify: a notification was not sent: gpsfence is stopping"
        )
        let run = { (cause: ProgramRunFailure.Cause) in
            Problem.alert(.notify(.run(ProgramRunFailure(program: "notify-send", cause: cause)))).text
        }
        #expect(run(.couldNotStart(Self.missing)) == "--notify: notify-send could not start: No such file or directory")
        #expect(run(.ended(ExitStatus(rawValue: 1 << 8))) == "--notify: notify-send exited with status 1")
        #expect(run(.timedOut(limit: 5)) == "--notify: notify-send took longer than 5 s and was killed")
        let bell = BellProblem(device: "/nonexistent/tty", error: try Self.noTerminal())
        #expect(
            Problem.alert(.bell(bell)).text
                == "--bell: no terminal to ring (/nonexistent/tty: No such file or directory); carrying on without it")
    }

    @Test func deliveries() {
        let webhook = "webhook http://127.0.0.1:9/"
        #expect(
            Problem.delivery(.failing(target: webhook, .httpStatus(503), .whileRunning)).text
                == "webhook http://127.0.0.1:9/: HTTP 503; retrying with backoff, nothing is dropped")
        #expect(
            Problem.delivery(.failing(target: webhook, .noAnswer(within: 10), .untilTheReplayEnds(drainTimeout: 30)))
                .text
                == "webhook http://127.0.0.1:9/: no answer within 10 s; retrying with backoff until the replay ends "
                + "(and at most 30 s more); what is not delivered by then is counted at the end")
        struct Locked: Error, CustomStringConvertible { var description: String { "database is locked" } }
        #expect(
            Problem.delivery(.outbox(target: webhook, CaughtError(Locked()), .deliveryWaits)).text
                == "webhook http://127.0.0.1:9/: database is locked; cannot read the outbox; delivery waits")
        #expect(
            DeliveryProblem.outbox(target: webhook, CaughtError(Locked()), .sentAgain).text
                == "webhook http://127.0.0.1:9/: database is locked; delivered, but the outbox could not note it: "
                + "it will be sent again")
        #expect(
            DeliveryProblem.outbox(target: webhook, CaughtError(Locked()), .attemptNotNoted).text
                == "webhook http://127.0.0.1:9/: database is locked; the outbox could not note a failed attempt")
        #expect(
            DeliveryProblem.outbox(target: webhook, CaughtError(Locked()), .marksLost).text
                == "webhook http://127.0.0.1:9/: database is locked; the delivered events could not be marked: "
                + "they will be sent again on the next start")
        let sync = "sync http://track.example/"
        #expect(
            DeliveryProblem.cursorNotSaved(target: sync, CaughtError(Locked())).text
                == "sync http://track.example/: cannot save its cursor: database is locked")
        #expect(
            DeliveryProblem.trackLeft(target: sync, points: 12, statePath: "/var/lib/gf.db", drainTimeout: 30).text
                == "sync http://track.example/: 12 track points remain queued in /var/lib/gf.db "
                + "(not sent within --drain-timeout 30.0 s); the next run or 'gpsfence sync' sends them")
        #expect(
            DeliveryProblem.trackLeft(target: sync, points: nil, statePath: "/s.db", drainTimeout: 2.5).text
                == "sync http://track.example/: some track points remain queued in /s.db "
                + "(not sent within --drain-timeout 2.5 s); the next run or 'gpsfence sync' sends them")
    }

    @Test func transportFailures() {
        let socket = SocketError(operation: "connect", endpoint: "127.0.0.1:9", errno: nil)
        let texts: [(TransportFailure, String)] = [
            (.noHost, "the URL has no host"),
            (.connection(socket), "connect 127.0.0.1:9 failed"),
            (.httpClient(said: "The request timed out."), "The request timed out."),
            (.httpStatus(404), "HTTP 404"),
            (.notHTTP, "not an HTTP answer"),
            (.noHTTPAnswer, "no HTTP answer"),
            (.noAnswer(within: 10), "no answer within 10 s"),
            (.noAnswer(within: nil), "no answer"),
            (.closedByServer, "the server closed the connection"),
            (.notConnected(.connecting), "not connected (connecting)"),
            (.notConnected(.refused(brokerSaid: "Not authorized")), "not connected (Not authorized)"),
            (
                .notConnected(.away(.noTCPConnection(within: 10))),
                "not connected (no TCP connection within 10 s)"
            ),
            (
                .publishRefused(library: "The client is not currently connected."),
                "publish failed: The client is not currently connected."
            ),
            (.noPUBACK(within: 10), "no PUBACK within 10 s"),
            (.lostBeforePUBACK, "connection lost before the PUBACK"),
        ]
        for (failure, text) in texts { #expect(failure.text == text) }
    }

    @Test func brokers() {
        let causes: [(BrokerCause, String)] = [
            (.noTCPConnection(within: 10), "no TCP connection within 10 s"),
            (.tcp(systemSaid: "Connection refused"), "Connection refused"),
            (
                .cannotResolve(resolverSaid: "Name or service not known"),
                "cannot resolve the host: Name or service not known"
            ),
            (.cannotCreateClient, "cannot create a client"),
            (.setUp(.lastWill, library: "Invalid arguments provided."), "last will: Invalid arguments provided."),
            (.setUp(.credentials, library: "Out of memory."), "credentials: Out of memory."),
            (.setUp(.tls, library: "Invalid arguments provided."), "TLS set-up: Invalid arguments provided."),
            (.connectFailed(library: "Connection refused"), "Connection refused"),
            (.refused(brokerSaid: "Not authorized"), "the broker refused the connection: Not authorized"),
            (.lost(library: "The connection was lost."), "connection lost: The connection was lost."),
            (.noCONNACK(within: 15), "no CONNACK within 15 s"),
        ]
        for (cause, text) in causes { #expect(cause.text == text) }
        #expect(
            Problem.broker(.away(client: "mqtt broker a:1883, b:1883", broker: "a:1883", .lost(library: "gone"))).text
                == "mqtt broker a:1883, b:1883: a:1883: connection lost: gone; trying the next broker, "
                + "events are kept in the state file")
        #expect(
            Problem.broker(.away(client: "mqtt broker a:1883", broker: nil, .noCONNACK(within: 15))).text
                == "mqtt broker a:1883: no CONNACK within 15 s; reconnecting with backoff, "
                + "events are kept in the state file")
        #expect(
            Problem.broker(.notACommand(topic: "gpsfence/alarm/set", payload: "stop")).text
                == "gpsfence/alarm/set: 'stop' is not a command (send ack); ignored")
        #expect(
            Problem.broker(.notACommand(topic: "t", payload: String(repeating: "x", count: 40))).text
                == "t: '\(String(repeating: "x", count: 32))' is not a command (send ack); ignored")
        #expect(
            Problem.broker(.retainedAck(topic: "gpsfence/alarm/set")).text
                == "gpsfence/alarm/set: a retained ack is ignored (publish it without the retain flag)")
        #expect(
            Problem.broker(.homeAssistantSensors(fences: 600, limit: 500, marked: 3)).text
                == "Home Assistant: 600 fences, more than the 500 that get a sensor each without asking; "
                + "3 have one: give a fence the property \"homeassistant\": true for a sensor (docs/mqtt.md)")
    }

    @Test func fenceLayersAndTheEngine() {
        #expect(
            Problem.fenceLayer(.commandIgnored(topic: "owntracks/u/d/cmd", .notACommand)).text
                == #"owntracks/u/d/cmd: ignored: not an OwnTracks command (a JSON object with "_type":"cmd")"#)
        #expect(
            FenceLayerProblem.commandIgnored(topic: "t", .notOfTypeCmd).text == #"t: ignored: "_type" is not "cmd""#)
        #expect(
            FenceLayerProblem.commandIgnored(topic: "t", .noWaypoints).text
                == #"t: ignored: setWaypoints without "waypoints""#)
        #expect(
            FenceLayerProblem.waypointLeftOut(index: 3, .noID).text
                == #"OwnTracks setWaypoints: waypoint 3: no "rid" (nor "tst") to name it (left out)"#)
        #expect(
            FenceLayerProblem.waypointLeftOut(index: 2, .radiusNotPositive(region: "c")).text
                == #"OwnTracks setWaypoints: waypoint 2: "rad" of region "c" must be a positive number of metres (left out)"#
        )
        let taken = LayerCircleRefusal(layer: .ownTracks, id: "home", cause: .idTaken)
        #expect(
            Problem.fenceLayer(.circleLeftOut(taken)).text
                == #"owntracks circle left out: its id "home" is already used by another fence"#)
        let anchor = LayerCircleRefusal(layer: .anchor, id: "anchor", cause: .refused(.shape(.radiusNotPositive(0))))
        #expect(anchor.text == "anchor circle left out: " + FenceProblem.shape(.radiusNotPositive(0)).text)
        #expect(
            anchor == LayerCircleRefusal(layer: .anchor, id: "anchor", cause: .refused(.shape(.radiusNotPositive(0)))))
        #expect(anchor != LayerCircleRefusal(layer: .anchor, id: "anchor", cause: .idTaken))
        #expect(
            Problem.engine(.fellBehind(dropped: 12, ringCapacity: 4096)).text
                == "the engine fell behind: 12 fixes dropped (ring of 4096)")
        struct IOError: Error, CustomStringConvertible { var description: String { "disk I/O error" } }
        #expect(
            Problem.engine(.notSynced(CaughtError(IOError()))).text
                == "the state file cannot be synced to storage, events wait for it: disk I/O error")
        #expect(
            Problem.fenceFeed(.reloadFailed(loaded: 3, CaughtError(IOError()))).text
                == "reload failed, keeping the 3 fences loaded: disk I/O error")
        #expect(
            FenceFeedProblem.brokerSetRefused(loaded: 1, CaughtError(IOError())).text
                == "fence set from the broker refused, keeping the 1 fences loaded: disk I/O error")
        #expect(
            FenceFeedProblem.brokerSetCleared(origin: "mqtt://b/fences", loaded: 2).text
                == "the fence set on mqtt://b/fences was cleared (an empty retained message); keeping the 2 fences loaded"
        )
        #expect(Problem.readBack("as it was written").text == "as it was written")
    }
}
