import Alerts
import ArgumentParser
import FenceRuntime
import Foundation
import NMEA

#if canImport(Glibc)
    import Glibc
#endif

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "What a running (or stopped) run knows now.",
        discussion: """
            Reads the state file (safe while 'run' writes it) and prints the device and its rate, \
            since when it has been monitoring, the last fix and its age, today's odometer, a card \
            per fence (inside or outside and since when, distance, visits this month) for the \
            fences it is inside, the nearest ones and those visited this month, and the outbox \
            counters per webhook or broker. When the run has stopped, it says when it last saw a fix.

            Example:
              gpsfence status --json
            """
    )

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    func run() throws {
        let now = currentUTCTime().millisecondsSinceEpoch
        let status = try StatusReport.read(statePath: state ?? StateLocation.defaultPath, now: now)
        OutputWriter.standardOutput.write(
            line: json ? StatusView.json(status) : StatusView.text(status, color: isatty(1) == 1))
        OutputWriter.standardOutput.flush()
    }
}
