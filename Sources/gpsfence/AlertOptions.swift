import ArgumentParser
import Delivery
import Events
import Fences
import Foundation
import LiveLoop
import Platform
import Presentation

/// The alert flags of docs/running.md, for `run` and `replay`.
struct AlertOptions: ParsableArguments {
    @Flag(help: "Print events as JSON Lines instead of human lines.")
    var json = false

    @Flag(help: "Ring the terminal bell (BEL to the controlling terminal) on --bell-on types.")
    var bell = false

    @Option(help: ArgumentHelp("Event types that ring the bell (default enter,approach).", valueName: "types"))
    var bellOn: String?

    @Option(
        help: ArgumentHelp(
            "Run PROGRAM for each event, without a shell: the event as JSON on stdin, GPSFENCE_* in its environment. Repeatable.",
            valueName: "program"))
    var exec: [String] = []

    @Option(
        help: ArgumentHelp("Seconds before a hook is killed. (default: 10.0)", valueName: "seconds"),
        transform: DecimalNumber.read)
    var execTimeout = 10.0

    @Option(help: ArgumentHelp("Hooks running at once, at most.", valueName: "count"))
    var execConcurrency = 4

    @Flag(help: "Desktop notifications (notify-send); without a desktop session this says so once and carries on.")
    var notify = false

    @Flag(help: "Speak events through espeak-ng, one at a time, never holding up the engine (docs/running.md).")
    var say = false

    @Option(
        help: ArgumentHelp(
            "With --say: speak through PROGRAM instead, which gets the sentence as its one argument.",
            valueName: "program"))
    var sayCommand: String?

    @Option(
        help: ArgumentHelp(
            "With --say: write each spoken alert to DIR/NNNN-KIND.wav instead of the speaker.",
            valueName: "dir"))
    var sayWav: String?

    @Option(
        help: ArgumentHelp(
            "POST each event as JSON to URL, through the durable outbox (at least once, in order). Repeatable.",
            valueName: "url"))
    var webhook: [String] = []

    @Option(
        help: ArgumentHelp(
            "An extra header on every webhook request, 'NAME: VALUE', or 'NAME: @FILE' to read the value from FILE (kept out of the process list; FILE must be private, chmod 600). Repeatable.",
            valueName: "header"))
    var webhookHeader: [String] = []

    @Option(
        help: ArgumentHelp(
            "Publish to an MQTT broker (docs/mqtt.md): every event to PREFIX/event through the durable outbox, retained status, fence states and location. Keep the password off the command line: --mqtt-password-file or GPSFENCE_MQTT_PASSWORD (a password in the URL is hidden from the process list only once read).",
            valueName: "mqtt[s]://[user[:password]@]host[:port]/prefix"))
    var mqtt: String?

    @Option(
        help: ArgumentHelp(
            "CA certificate(s) for an mqtts:// broker with a private CA (default: the system CA store).",
            valueName: "file"))
    var mqttCa: String?

    @Option(
        help: ArgumentHelp(
            "Client certificate (PEM) for an mqtts:// broker that asks for one (with --mqtt-key).", valueName: "file"))
    var mqttCert: String?

    @Option(
        help: ArgumentHelp(
            "The client certificate's private key (PEM, unencrypted; with --mqtt-cert). FILE must be private (chmod 600); a relative FILE is a systemd credential's name when CREDENTIALS_DIRECTORY is set.",
            valueName: "file"))
    var mqttKey: String?

    @Option(
        help: ArgumentHelp(
            "Read the MQTT password from the first line of FILE (the user is in the URL). FILE must be private (chmod 600); a relative FILE is a systemd credential's name when CREDENTIALS_DIRECTORY is set.",
            valueName: "file"))
    var mqttPasswordFile: String?

    @Option(help: ArgumentHelp("MQTT protocol version: 3.1.1 or 5.", valueName: "version"))
    var mqttVersion = "3.1.1"

    @Option(help: ArgumentHelp("Seconds between MQTT keepalive pings.", valueName: "seconds"))
    var mqttKeepalive = 30

    @Option(
        help: ArgumentHelp(
            "Publish PREFIX/location (and the OwnTracks location) at most this often, in seconds of fix time. (default: 5.0)",
            valueName: "seconds"), transform: DecimalNumber.read)
    var mqttLocationInterval = 5.0

    @Option(
        help: ArgumentHelp(
            "Also publish OwnTracks location and transition messages as owntracks/USER/DEVICE (needs --mqtt).",
            valueName: "user/device"))
    var owntracks: String?

    @Option(help: ArgumentHelp("OwnTracks tracker id (default: the last two characters of DEVICE).", valueName: "tid"))
    var owntracksTid: String?

    @Flag(help: "Appear in Home Assistant by itself, through its MQTT discovery (needs --mqtt).")
    var homeassistant = false

    @Option(
        help: ArgumentHelp(
            "Home Assistant's discovery prefix (default: homeassistant; needs --homeassistant).", valueName: "topic"))
    var homeassistantPrefix: String?

    @Option(
        help: ArgumentHelp(
            "The device's name in Home Assistant (default: the MQTT prefix's last level; needs --homeassistant).",
            valueName: "name"))
    var homeassistantName: String?

    /// The checked `--mqtt` options (files read, URL parsed); nil without `--mqtt`.
    func mqttConfiguration() throws(MQTTConfigurationError) -> MQTTConfiguration? {
        var configuration = try MQTTConfiguration.parse(
            url: mqtt, caFile: mqttCa, certificateFile: mqttCert, keyFile: mqttKey, passwordFile: mqttPasswordFile,
            protocolVersion: mqttVersion,
            keepalive: mqttKeepalive,
            locationInterval: mqttLocationInterval, ownTracks: owntracks, ownTracksTID: owntracksTid,
            homeAssistant: homeassistant, homeAssistantPrefix: homeassistantPrefix,
            homeAssistantName: homeassistantName, secrets: .environment)
        configuration?.softwareVersion = gpsfenceVersion
        return configuration
    }

    func validate() throws {
        if let bellOn, case .failure(let error) = BellSink.types(bellOn) {
            throw ValidationError(
                .notAChoice(
                    option: "--bell-on", value: error.name, choices: GeofenceEvent.Kind.allCases.map(\.rawValue)))
        }
        if bellOn != nil && !bell { throw ValidationError(.companionMissing(.option("--bell-on", goesWith: "--bell"))) }
        if (sayCommand != nil || sayWav != nil) && !say {
            throw ValidationError(
                .companionMissing(.option(sayCommand != nil ? "--say-command" : "--say-wav", goesWith: "--say")))
        }
        if let sayWav {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sayWav, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError(.notADirectory(option: "--say-wav", path: sayWav))
            }
        }
        if let problem = Limits.execTimeout(execTimeout) ?? Limits.execConcurrency(execConcurrency) {
            throw ValidationError(.outOfRange(problem))
        }
        do { _ = try mqttConfiguration() } catch { throw ValidationError(.mqtt(error)) }
        for url in webhook where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError(.webhook(.notAnHTTPURL(endpoint: url)))
        }
        if !webhookHeader.isEmpty, webhook.isEmpty {
            throw ValidationError(.companionMissing(.option("--webhook-header", goesWith: "--webhook")))
        }
        do { _ = try headers(webhookHeader, option: "--webhook-header") } catch {
            throw ValidationError(.header(error))
        }
    }

    func deliveryPolicy(_ context: SinkContext) -> OutboxDelivery.Policy {
        var policy = OutboxDelivery.Policy()
        policy.drainTimeout = context.drainTimeout
        return policy
    }

    /// Whether a sink delivers through the state file's outbox.
    var needsOutbox: Bool { !webhook.isEmpty || mqtt != nil }

    /// The sinks, in the order they see each event: the console first.
    /// - Parameter live: a live run writes each console line at once (an alert that waits in a
    ///   buffer is late); a replay lets lines collect and writes them in large blocks.
    /// - Parameter maxAccuracy: the usable-fix bound (`--max-accuracy`), for the MQTT location.
    /// - Parameter ownTracksCommands: `run` with `--owntracks`: where OwnTracks commands go.
    /// - Parameter format: the zone and units of what people read and hear.
    func sinks(
        color: Bool, live: Bool, context: SinkContext, format: HumanFormat, maxAccuracy: Double = 100,
        ownTracksCommands: OwnTracksCommandInbox? = nil, alarm: AlarmSound = AlarmSound()
    ) throws -> [EventSink] {
        var sinks: [EventSink] = [
            ConsoleSink(
                style: json ? .json : .human(color: color), flushesEveryEvent: live, format: format,
                ackCommand: AckCommand.text(statePath: Self.namedStatePath(context.statePath)))
        ]
        if bell || alarm.rings {
            // An alarm rings the bell whether or not --bell asked for it on other events.
            let types = bell ? bellOn.flatMap { try? BellSink.types($0).get() } ?? BellSink.defaultTypes : []
            sinks.append(BellSink(types: types, alarmRepeat: alarm.repeat, report: context.reportProblem))
        }
        if !exec.isEmpty {
            sinks.append(
                try ExecHookSink(
                    programs: exec, timeout: execTimeout, concurrency: execConcurrency,
                    localZone: format.calendar.zone, report: context.reportProblem))
        }
        if notify {
            sinks.append(NotifySink(format: format, statePath: context.statePath, report: context.reportProblem))
        }
        if say {
            sinks.append(
                SaySink(
                    voice: sayCommand.map(SaySink.Voice.program) ?? .espeak, wavDirectory: sayWav,
                    units: format.units, localZone: format.calendar.zone, alarmRepeat: alarm.repeat,
                    report: context.reportProblem))
        }
        for endpoint in webhook {
            guard let outbox = context.outbox else { preconditionFailure("webhooks need the outbox (needsOutbox)") }
            sinks.append(
                OutboxDelivery(
                    transport: try WebhookTransport(
                        endpoint: endpoint, headers: headers(webhookHeader, option: "--webhook-header")),
                    outbox: outbox,
                    policy: deliveryPolicy(context),
                    drainsOnFinish: context.inputEnds, report: context.reportProblem))
        }
        if var configuration = try mqttConfiguration() {
            guard let outbox = context.outbox else { preconditionFailure("MQTT needs the outbox (needsOutbox)") }
            if let url = mqtt { ProcessArguments.hidePassword(of: url) }
            configuration.clientID = MQTTConfiguration.clientID(statePath: context.statePath)
            configuration.calendar = format.calendar
            sinks.append(
                MQTTSink(
                    configuration: configuration, outbox: outbox, maxAccuracy: maxAccuracy,
                    drainsOnFinish: context.inputEnds,
                    drainTimeout: context.drainTimeout, ownTracksCommands: ownTracksCommands,
                    alarmAnswers: alarm.answers, showsAlarm: alarm.rings, report: context.reportProblem))
        }
        return sinks
    }
}

extension AlertOptions {
    /// How the alarm sounds through these sinks (docs/running.md, "Alarms").
    struct AlarmSound {
        /// Seconds between the bell's rings and the repeated sentence.
        var `repeat` = 3.0
        /// Whether alarms ring the bell even without --bell.
        var rings = false
        /// Where `ack` from the broker goes (a run's alarm); nil: the broker's answers are not taken.
        var answers: AlarmAnswers?
    }
}

extension AlertOptions {
    /// The state file as `gpsfence ack --state` must name it from any folder (absolute); nil for
    /// the default one, which a bare `gpsfence ack` finds.
    static func namedStatePath(_ path: String?) -> String? {
        guard let path, path != StateLocation.defaultPath else { return nil }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
