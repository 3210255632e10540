import Alerts
import ArgumentParser
import FenceRuntime
import NMEA

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode NMEA captures into one JSON object per fix.",
        discussion: """
            Reads raw NMEA bytes (files, or standard input for '-' or no file) and prints one JSON \
            object per fix, or per sentence with --sentences (every field: docs/formats.md). \
            Lines starting with '#' are comments.

            Example:
              gpsfence decode captures/bridge/capture.nmea --stats
            """
    )

    @Argument(help: "Capture files; '-' or none reads standard input.")
    var files: [String] = []

    @Flag(help: "Print one JSON object per sentence instead of per fix.")
    var sentences = false

    @Flag(help: "Print a summary of sentences, drops and fixes on standard error.")
    var stats = false

    @Option(
        help: ArgumentHelp(
            "Dates before this day (YYYY-MM-DD) are taken as GPS week-rollover errors and moved forward by 1024 weeks.",
            valueName: "date"))
    var rolloverPivot: String?

    func run() throws {
        var job = DecodeJob(inputs: files.map(CaptureInput.init(path:)))
        job.perSentence = sentences
        if let rolloverPivot {
            guard let pivot = CivilDate(iso: rolloverPivot), pivot.isValid else {
                throw ValidationError("--rollover-pivot wants a date as YYYY-MM-DD, not '\(rolloverPivot)'")
            }
            job.rollover = WeekRollover(pivot: pivot)
        }
        let summaries = try job.run(output: .standardOutput)
        if stats {
            for summary in summaries { OutputWriter.standardError.write(line: summary.report) }
        }
        if let problem = DecodeJob.noNMEAProblem(summaries) { throw problem }
    }
}
