import Alerts
import Alerts
import ArgumentParser
import FenceRuntime

#if canImport(Glibc)
import Glibc
#endif

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay NMEA captures through the geofence engine.",
        discussion: """
            Reads the captures in order (files, or '-' for standard input), assembles fixes and \
            prints the events of SPEC §6: a human line each, or JSON Lines with --json. Events \
            depend only on the fix times, so any --speed gives the same events.

            Example:
              gpsfence replay captures/bridge/capture.nmea --fences captures/bridge/fences.geojson
            """
    )

    @Argument(help: ArgumentHelp("NMEA captures ('-' for standard input).", valueName: "capture"))
    var captures: [String]

    @Option(help: ArgumentHelp("Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'.", valueName: "file"))
    var fences: String

    @Option(help: ArgumentHelp("Real time scaled by this factor, or 'max' (default) for as fast as possible.", valueName: "x|max"))
    var speed = "max"

    @Option(help: ArgumentHelp("State file (SPEC §8): fence states restored at the start, events logged.", valueName: "path"))
    var state: String?

    @OptionGroup var alerts: AlertOptions
    @OptionGroup var semantics: SemanticsOptions

    func validate() throws {
        if captures.isEmpty { throw ValidationError("give at least one capture (or '-' for standard input)") }
        _ = try replaySpeed()
    }

    func replaySpeed() throws -> Double? {
        if speed == "max" { return nil }
        guard let value = Double(speed), value > 0, value.isFinite else {
            throw ValidationError("--speed wants a positive number or 'max', not '\(speed)'")
        }
        return value
    }

    func run() throws {
        var job = ReplayJob(captures: captures.map(CaptureInput.init(path:)), fencesPath: fences)
        job.speed = try replaySpeed()
        job.settings = semantics.settings
        job.showsProgress = true
        job.statePath = state
        _ = try job.run(needsOutbox: alerts.needsOutbox) { context in
            try alerts.sinks(color: isatty(1) == 1, live: false, context: context, maxAccuracy: job.settings.maxAccuracy)
        }
    }
}
