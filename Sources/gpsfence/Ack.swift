import ArgumentParser
import Delivery
import Jobs
import LiveLoop
import Presentation

struct Ack: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack",
        abstract: "Acknowledge the sounding alarm of a run.",
        discussion: """
            Answers the latched alarm of 'run --alarm' from any shell on the machine: the run \
            stops ringing within a second. Exit status 0 when an alarm was acknowledged, 1 (with a \
            message) when none was sounding. With no run holding the state file, the answer waits \
            there and the next run starts silent.

            Example:
              gpsfence ack --state /var/lib/gpsfence/state.sqlite
            """
    )

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    func run() throws {
        switch try AckJob(statePath: state ?? StateLocation.defaultPath).run() {
        case .acknowledged(let pid):
            OutputWriter.standardOutput.write(line: "alarm acknowledged (run pid \(pid))")
        case .leftForTheNextRun:
            OutputWriter.standardOutput.write(
                line: "alarm acknowledged; no run holds the state file, the next run starts silent")
        }
        OutputWriter.standardOutput.flush()
    }
}
