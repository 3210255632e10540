import ArgumentParser
import Delivery
import Events
import Fences
import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Tools
import Views

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

            With --watch: redrawn in place every --interval seconds as cgps does, with the \
            speed, course and satellites, the fence ahead with its distance and eta, and the \
            latest events, until Ctrl-C (docs/report.md, "Live view").

            Examples:
              gpsfence status --json
              gpsfence status --watch
              gpsfence status --forget http://127.0.0.1:18080/hook
            """
    )

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @Flag(help: "Print the status as one JSON object.")
    var json = false

    @Flag(help: "Redraw the status in place until Ctrl-C, as cgps does.")
    var watch = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("With --watch: seconds between redraws (1s, 5s; default 1s).", valueName: "duration"),
        transform: Seconds.read)
    var interval: Seconds?

    @Option(
        help: ArgumentHelp(
            "Remove what the state file holds for a previous delivery target (one the last run did not have), as status shows it.",
            valueName: "target"))
    var forget: String?
    @OptionGroup var format: HumanFormatOptions

    /// Between redraws when --interval is not given.
    static let defaultInterval = Seconds(1)

    func validate() throws {
        if watch && json { throw ValidationError(.conflict(.watchWithJSON)) }
        if forget != nil, watch || json || interval != nil {
            throw ValidationError(.conflict(.forgetWithOthers))
        }
        guard let interval else { return }
        // Without --watch the status is printed once: an interval would be silently ignored.
        if !watch {
            throw ValidationError(.companionMissing(.intervalNeedsWatch))
        }
        if let problem = Limits.redrawInterval(interval.value) {
            throw ValidationError(.outOfRange(problem))
        }
    }

    func run() throws {
        if let forget {
            let line = try ForgetTargetJob(statePath: state ?? StateLocation.defaultPath, target: forget).run()
            OutputWriter.standardOutput.write(line: line)
            return OutputWriter.standardOutput.flush()
        }
        if watch {
            StopSignals.install()
            let job = WatchJob(
                statePath: state ?? StateLocation.defaultPath, terminal: StandardStream.output.isTerminal)
            var configured = job
            configured.interval = (interval ?? Self.defaultInterval).value
            configured.format = format.format
            configured.ackCommand = AckCommand.text(statePath: AlertOptions.namedStatePath(state))
            return try configured.run(output: .standardOutput)
        }
        let statePath = state ?? StateLocation.defaultPath
        let live = LiveChannel.ask(statePath: statePath)
        let now = currentUTCTime().millisecondsSinceEpoch
        var status = try StatusReport.read(
            statePath: statePath, now: now, calendar: format.format.calendar, live: live)
        status.ackCommand = AckCommand.text(statePath: AlertOptions.namedStatePath(state))
        OutputWriter.standardOutput.write(
            line: json
                ? StatusView.json(status)
                : StatusView.text(status, color: StandardStream.output.isTerminal, format: format.format))
        OutputWriter.standardOutput.flush()
    }
}
