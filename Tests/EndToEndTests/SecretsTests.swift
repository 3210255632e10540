import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// Secrets kept off the command line, which every local user reads (`ps`, /proc/PID/cmdline): the
/// real binary on a simulated receiver, a real mosquitto that wants a password, a real HTTP server
/// that logs the webhook's headers.
@Suite(.serialized) struct SecretsTests {
    static let password = "s3cret-broker-pw"
    static let token = "t0ken-for-the-webhook"

    /// A file holding `text`, with `mode`.
    static func secretFile(_ folder: URL, _ name: String, _ text: String, mode: Int) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    enum PasswordSource: String, CaseIterable {
        case file, environment
    }

    /// `run` on a simulated pass through a fence, the broker's password from a private file or
    /// from `GPSFENCE_MQTT_PASSWORD`, the webhook's token from a private file: every event reaches
    /// a subscriber that logs in, the token reaches the webhook, and while `run` runs its command
    /// line holds neither secret. A hook never sees the broker's password in its environment.
    @Test(arguments: PasswordSource.allCases)
    func theBrokerAndTheWebhookGetTheSecretsAndTheProcessListDoesNot(_ source: PasswordSource) throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let state = folder.appendingPathComponent("state.sqlite").path
        let broker = try MosquittoBroker(credentials: ("van", Self.password))
        let subscriber = try broker.subscribe("secret/#")
        let server = try SyncCommandTests.SyncServer(folder: folder)
        let tokenFile = try Self.secretFile(folder, "webhook-token", "Bearer \(Self.token)\n", mode: 0o600)

        var arguments = [
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json",
            "--mqtt", "mqtt://van@127.0.0.1:\(broker.port)/secret",
            "--webhook", server.url, "--webhook-header", "Authorization: @\(tokenFile)",
        ]
        let hookLog = folder.appendingPathComponent("hook.log").path
        let hook = folder.appendingPathComponent("hook.sh").path
        try "#!/bin/sh\ncat >/dev/null\necho \"ran ${GPSFENCE_MQTT_PASSWORD:-unset}\" >> '\(hookLog)'\n".write(
            toFile: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: hook)
        arguments += ["--exec", hook]
        var environment: [String: String] = [:]
        switch source {
        case .file:
            let passwordFile = try Self.secretFile(folder, "mqtt-password", Self.password + "\n", mode: 0o600)
            arguments += ["--mqtt-password-file", passwordFile]
        case .environment:
            environment["GPSFENCE_MQTT_PASSWORD"] = Self.password
        }

        let simulator = try RunCommandTests.simulatedPass(route: route, link: link, start: "2026-02-03T10:15:00Z")
        let run = try BackgroundGPSFence(arguments, environment: environment)
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("exit") }, "\(output.all)")
        _ = simulator.finish()
        let sent = eventIDs(output.all)
        #expect(!sent.isEmpty)
        #expect(
            subscriber.lines.wait(timeout: 20) { _ in
                firstArrivals(eventIDs(subscriber.payloads("secret/event"))).count >= sent.count
            })
        #expect(firstArrivals(eventIDs(subscriber.payloads("secret/event"))) == sent)
        waitUntil(timeout: 20, every: 0.05) { server.requests.count >= sent.count }
        #expect(server.requests.count >= sent.count)
        #expect(
            server.requests.allSatisfy {
                ($0["headers"] as? [String: String])?["authorization"] == "Bearer \(Self.token)"
            })

        waitUntil(timeout: 10, every: 0.05) {
            ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").contains("ran")
        }
        let hookRuns = (try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? ""
        #expect(hookRuns.contains("ran unset"), "\(hookRuns)")
        #expect(!hookRuns.contains(Self.password), "\(hookRuns)")

        let commandLine = try String(
            contentsOfFile: "/proc/\(run.process.processIdentifier)/cmdline", encoding: .utf8)
        #expect(commandLine.contains("mqtt://van@127.0.0.1"), "the command line was read")
        #expect(!commandLine.contains(Self.password), "\(commandLine)")
        #expect(!commandLine.contains(Self.token), "\(commandLine)")

        run.signal(SIGINT)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!stopped.stderr.contains(Self.password) && !stopped.stderr.contains(Self.token))
    }

    /// `--fences mqtt://USER@...` on a broker of its own (no `--mqtt`) logs in with
    /// `GPSFENCE_MQTT_PASSWORD` and gets the retained fence set.
    @Test func theFenceBrokerTakesThePasswordFromTheEnvironment() throws {
        let folder = temporaryDirectory()
        let broker = try MosquittoBroker(credentials: ("van", Self.password))
        let (link, simulator) = try LiveFencesTests.parkedReceiver(in: folder)
        defer {
            simulator.signal(SIGINT)
            _ = simulator.finish()
        }
        try runTool(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-r", "-t", "fleet/fences"]
                + broker.authArguments + ["-m", LiveFencesTests.fences(far: ["far"])])
        let run = try BackgroundGPSFence(
            [
                "run", "--device", link, "--baud", "115200", "--fences",
                "mqtt://van@127.0.0.1:\(broker.port)/fleet/fences",
                "--state", folder.appendingPathComponent("state.sqlite").path, "--json",
            ], environment: ["GPSFENCE_MQTT_PASSWORD": Self.password])
        let output = LineCollector(run.output.fileHandleForReading)
        let registered = output.wait {
            LiveFencesTests.objects($0).contains {
                $0["type"] as? String == "registered" && $0["fences"] as? [String] == ["far"]
            }
        }
        #expect(registered, "\(output.all)")
        run.signal(SIGTERM)
        let stopped = run.finish()
        output.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!broker.log.contains("not authorised"), "\(broker.log)")
    }

    /// A password or token file other users may read is refused before anything runs: exit 2, the
    /// file, its mode and the fix named.
    @Test func worldReadableSecretFilesAreRefused() throws {
        let folder = temporaryDirectory()
        let passwordFile = try Self.secretFile(folder, "mqtt-password", Self.password + "\n", mode: 0o644)
        let tokenFile = try Self.secretFile(folder, "webhook-token", Self.token + "\n", mode: 0o644)
        let replay = ["replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson"]
        let cases: [([String], String, String)] = [
            (
                ["--mqtt", "mqtt://van@127.0.0.1:1/x", "--mqtt-password-file", passwordFile],
                "--mqtt-password-file", passwordFile
            ),
            (
                ["--webhook", "http://127.0.0.1:1/", "--webhook-header", "Authorization: @\(tokenFile)"],
                "--webhook-header Authorization", tokenFile
            ),
        ]
        for (options, option, file) in cases {
            let result = try runGPSFence(replay + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(option), "\(result.stderr)")
            #expect(result.stderr.contains("'\(file)' is readable by other users (mode 0644)"), "\(result.stderr)")
            #expect(result.stderr.contains("chmod 600 \(file)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
