import ArgumentParser
import Fences
import Jobs
import LiveLoop
import Tools

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send the track backlog of a stopped run to a server, by hand.",
        discussion: """
            Sends the track points of the state file that the server has not acknowledged yet, \
            with the cursor, batches, headers and backoff of 'run --sync' (docs/running.md), and \
            exits 0 once nothing is left, or 1 when the server did not take everything within \
            --drain-timeout (what is left stays queued). It is refused beside a 'run' on the same \
            state file.

            Example:
              gpsfence sync --sync https://fleet.example/track \\
                --sync-header 'Authorization: @/etc/gpsfence/token'
            """
    )

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seconds to keep trying while the server is down. (default: 30.0)", valueName: "seconds"),
        transform: DecimalNumber.read)
    var drainTimeout = 30.0

    @OptionGroup var options: SyncOptions
    @OptionGroup var zone: ZoneOptions

    func validate() throws {
        if options.sync == nil { throw ValidationError(.missing(.syncServer)) }
        if let problem = Limits.checkSeconds("--drain-timeout", drainTimeout, allowsZero: true) {
            throw ValidationError(.outOfRange(problem))
        }
    }

    func run() throws {
        guard var configuration = try options.configuration() else { return }
        configuration.calendar = zone.calendar
        var job = SyncJob(statePath: state ?? StateLocation.defaultPath, configuration: configuration)
        job.drainTimeout = drainTimeout
        try job.run()
    }
}
