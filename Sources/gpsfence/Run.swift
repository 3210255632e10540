import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Platform
import Presentation
import Receivers
import Tools

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Watch a live GPS receiver and raise geofence alerts.",
        discussion: """
            Reads NMEA from the device (autobaud on USB-serial bridges), checks every fix against \
            the fences and raises the events of docs/events.md through the chosen alerts. The state \
            (fence states, event log, visits, webhook outbox) is kept in the state file, so a \
            restart gives no second enter. Ctrl-C or SIGTERM stops it cleanly, and so does closing \
            the terminal it runs on; an edit of the fence file, or SIGHUP to a service (no \
            terminal), reloads the fences.

            Example:
              gpsfence run --device auto --fences fences.geojson --bell \\
                --exec ./on-event.sh
              gpsfence run --device gpsd://localhost:2947 \\
                --fences fences.geojson   # gpsd owns the port
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    @Option(
        help: ArgumentHelp(
            "Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'; or mqtt[s]://[user[:password]@]host[:port]/topic: the retained GeoJSON on that topic (docs/running.md). Optional with --anchor.",
            valueName: "file"))
    var fences: String?

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Days of track the state file keeps. (default: 7.0)", valueName: "days"),
        transform: DecimalNumber.read)
    var keepDays = 7.0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds between writes of the track to the state file: what a crash or power cut can lose of it. (default: \(RunJob.Options.defaultTrackWriteInterval))",
            valueName: "seconds"), transform: DecimalNumber.read)
    var trackWriteInterval = RunJob.Options.defaultTrackWriteInterval

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "At stop, seconds the track sync may take to send what is queued. (default: 5.0)", valueName: "seconds"),
        transform: DecimalNumber.read)
    var drainTimeout = 5.0

    @OptionGroup var anchor: AnchorOptions
    @OptionGroup var alarm: AlarmOptions
    @OptionGroup var alerts: AlertOptions
    @OptionGroup var sync: SyncOptions
    @OptionGroup var semantics: SemanticsOptions
    @OptionGroup var format: HumanFormatOptions
    @OptionGroup var webPage: WebOptions

    func validate() throws {
        if fences == nil, anchor.anchor == nil {
            throw ValidationError(.missing(.fences))
        }
        if let problem = Limits.keepDays(keepDays)
            ?? Limits.checkSeconds("--drain-timeout", drainTimeout, allowsZero: true)
            ?? Limits.checkSeconds("--track-write-interval", trackWriteInterval)
        {
            throw ValidationError(.outOfRange(problem))
        }
    }

    func run() throws {
        let choice = try DeviceChoice.resolve(receiver.address())
        if let note = choice.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        var options = RunJob.Options(device: choice, fencesPath: fences, statePath: state ?? StateLocation.defaultPath)
        options.rate = try receiver.rate()
        options.autobaud = receiver.autobaud
        options.settings = semantics.settings
        options.settings.localZone = format.zone.calendar.zone
        options.keepDays = keepDays
        options.trackWriteInterval = trackWriteInterval
        options.sync = try sync.configuration()
        options.sync?.calendar = format.zone.calendar
        options.calendar = format.zone.calendar
        options.drainTimeout = drainTimeout
        options.layers = anchor.layers
        options.alarms = alarm.policy
        options.web = try webPage.settings(format: format.format)
        let answers = options.alarmAnswers
        // OwnTracks regions from `setWaypoints` commands (docs/mqtt.md): only a live run takes them.
        let commands = alerts.owntracks == nil ? nil : OwnTracksCommandInbox()
        options.layers.ownTracksCommands = commands
        let tls = fences?.lowercased().hasPrefix("mqtts://") == true
        options.brokerFences = try fences.flatMap { fences in
            try RunJob.brokerFences(
                fences, caFile: tls ? alerts.mqttCa : nil, certificateFile: tls ? alerts.mqttCert : nil,
                keyFile: tls ? alerts.mqttKey : nil, secrets: .environment)
        }
        try RunJob(options: options).run { context in
            try alerts.sinks(
                color: StandardStream.output.isTerminal, live: true, context: context, format: format.format,
                maxAccuracy: options.settings.maxAccuracy,
                ownTracksCommands: commands,
                alarm: AlertOptions.AlarmSound(repeat: alarm.alarmRepeat.value, rings: alarm.sounds, answers: answers))
                + alarm.escalation(timeout: alerts.execTimeout, report: context.reportProblem)
        }
    }
}
