import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Platform
import Presentation
import Tools
import Views

struct Visits: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "Visits per fence in a month, with a calendar.",
        discussion: """
            Reads the visits recorded in the state file (by 'run', or 'replay --state') and prints, \
            per fence, the month's visit count, total and mean time and days with visits, with a \
            calendar coloured by visits on a terminal. Months and days are local (--timezone, \
            TZ or /etc/localtime; --utc for UTC's).

            Example:
              gpsfence visits --month 2 --year 2026
            """
    )

    @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
    var state: String?

    @Option(help: "Month, 1-12 (default: this month).")
    var month: Int?

    @Option(help: "Year (default: this year).")
    var year: Int?

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var zone: ZoneOptions

    func validate() throws {
        if let month, let problem = Limits.check("--month", month, 1...12) {
            throw ValidationError(.outOfRange(problem))
        }
        if let year, let problem = Limits.check("--year", year, 1970...9999) {
            throw ValidationError(.outOfRange(problem))
        }
    }

    func run() throws {
        var job = VisitsJob(statePath: state ?? StateLocation.defaultPath)
        job.year = year
        job.month = month
        job.calendar = zone.calendar
        let report = try job.report()
        OutputWriter.standardOutput.write(
            line: json ? VisitsView.json(report) : VisitsView.text(report, color: StandardStream.output.isTerminal))
        OutputWriter.standardOutput.flush()
    }
}
