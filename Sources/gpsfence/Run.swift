import Alerts
import Alerts
import ArgumentParser
import FenceRuntime
import Serial

#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Watch a live GPS receiver and raise geofence alerts.",
        discussion: """
            Reads NMEA from the device (autobaud on USB-serial bridges), checks every fix against \
            the fences and raises the events of SPEC §6 through the chosen alerts. The state \
            (fence states, event log, visits, webhook outbox) is kept in the state file, so a \
            restart gives no second enter. Ctrl-C or SIGTERM stops it cleanly; SIGHUP or an edit of \
            the fence file reloads the fences.

            Example:
              gpsfence run --device auto --fences fences.geojson --bell --exec ./on-event.sh
            """
    )

    @Option(help: "Device path, or 'auto' for the USB GPS found by libudev.")
    var device = "auto"

    @Option(help: "Line speed, or 'auto' to detect it.")
    var baud = "auto"

    @Option(help: ArgumentHelp("Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'.", valueName: "file"))
    var fences: String

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @OptionGroup var alerts: AlertOptions
    @OptionGroup var semantics: SemanticsOptions

    @Option(help: ArgumentHelp("Seconds autobaud listens at each rate.", visibility: .hidden))
    var autobaudWindow = 2.5

    func validate() throws {
        _ = try parseBaud(baud)
    }

    func run() throws {
        let choice = try DeviceChoice.resolve(device)
        if let note = choice.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        var options = RunJob.Options(device: choice, fencesPath: fences, statePath: state ?? StateLocation.defaultPath)
        options.rate = try parseBaud(baud)
        options.autobaud = Autobaud(window: autobaudWindow)
        options.settings = semantics.settings
        try RunJob(options: options).run { context in
            try alerts.sinks(color: isatty(1) == 1, live: true, context: context, maxAccuracy: options.settings.maxAccuracy)
        }
    }
}
