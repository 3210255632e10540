import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Platform
import Tools

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay NMEA captures through the geofence engine.",
        discussion: """
            Reads the captures in order (files, or '-' for standard input), assembles fixes and \
            prints the events of docs/events.md: a human line each, or JSON Lines with --json (docs/formats.md). Events \
            depend only on the fix times, so any --speed gives the same events.

            The anchor watch (--anchor, --anchor-at, --anchor-warn) and --alarm work as in \
            'run', on the capture's times, so a recorded night at anchor can be replayed; the \
            alarm gives its events only (nothing rings, and nobody answers).

            Example:
              gpsfence replay captures/bridge/capture.nmea \\
                --fences captures/bridge/fences.geojson
              gpsfence replay night.nmea --anchor 30 \\
                --anchor-at 54.3233,10.1394 --alarm
            """
    )

    @Argument(help: ArgumentHelp("NMEA captures ('-' for standard input).", valueName: "capture"))
    var captures: [String]

    @Option(
        help: ArgumentHelp(
            "Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'. Optional with --anchor.", valueName: "file"))
    var fences: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Real time scaled by this factor, or 'max' for as fast as possible.", valueName: "x|max"))
    var speed = "max"

    @Option(
        help: ArgumentHelp(
            "State file (docs/running.md): fence states restored at the start, events logged.", valueName: "path"))
    var state: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "At the end, seconds that webhook deliveries and the track sync may take to finish. (default: 30.0)",
            valueName: "seconds"),
        transform: DecimalNumber.read)
    var drainTimeout = 30.0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Days of track the state file keeps. (default: 7.0)", valueName: "days"),
        transform: DecimalNumber.read)
    var keepDays = 7.0

    @OptionGroup var anchor: AnchorOptions
    @OptionGroup var alarm: AlarmOptions
    @OptionGroup var alerts: AlertOptions
    @OptionGroup var sync: SyncOptions
    @OptionGroup var semantics: SemanticsOptions
    @OptionGroup var format: HumanFormatOptions

    func validate() throws {
        if fences == nil, anchor.anchor == nil {
            throw ValidationError(.missing(.fences))
        }
        if alarm.onEscalate != nil {
            throw ValidationError(.conflict(.escalationInReplay))
        }
        if let problem = Limits.keepDays(keepDays) { throw ValidationError(.outOfRange(problem)) }
        if sync.sync != nil, state == nil {
            throw ValidationError(.companionMissing(.syncNeedsState))
        }
        if captures.isEmpty { throw ValidationError(.missing(.captures)) }
        _ = try replaySpeed()
    }

    func replaySpeed() throws -> Double? {
        if speed == "max" { return nil }
        guard let value = Double(speed) else {
            throw ValidationError(.malformed(option: "--speed", value: speed, wanted: .speedOrMax))
        }
        if let problem = Limits.replaySpeed(value) { throw ValidationError(.outOfRange(problem)) }
        return value
    }

    func run() throws {
        var job = ReplayJob(captures: captures.map(CaptureInput.init(path:)), fencesPath: fences)
        job.speed = try replaySpeed()
        job.settings = semantics.settings
        job.settings.localZone = format.zone.calendar.zone
        job.keepDays = keepDays
        job.showsProgress = true
        job.statePath = state
        job.drainTimeout = drainTimeout
        job.sync = try sync.configuration()
        job.sync?.calendar = format.zone.calendar
        job.calendar = format.zone.calendar
        job.layers = anchor.layers
        job.alarms = alarm.sounds ? alarm.policy : nil
        _ = try job.run(needsOutbox: alerts.needsOutbox) { context in
            try alerts.sinks(
                color: StandardStream.output.isTerminal, live: job.speed != nil, context: context,
                format: format.format,
                maxAccuracy: job.settings.maxAccuracy)
        }
    }
}
