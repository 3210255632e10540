import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Tools

struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode NMEA captures into one JSON object per fix.",
        discussion: """
            Reads raw NMEA bytes (files, or standard input for '-' or no file) and prints one JSON \
            object per fix, or per sentence with --sentences (every field: docs/formats.md). \
            Lines starting with '#' are comments.
            With --device: a live receiver's fixes, each line written as the fix is made \
            (as gpspipe does for gpsd), until Ctrl-C or --count fixes.

            Examples:
              gpsfence decode captures/bridge/capture.nmea --stats
              gpsfence decode --device /dev/ttyACM0
              gpsfence decode --device gpsd://localhost --count 10
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

    @Option(
        help: ArgumentHelp(
            "Read a live receiver instead of files: a device path, 'auto', or gpsd://[HOST][:PORT][/DEVICE].",
            valueName: "device"))
    var device: String?

    @Option(help: "With --device: line speed, or 'auto' to detect it (ignored on CDC-ACM and through gpsd).")
    var baud = "auto"

    @Option(parsing: .unconditional, help: ArgumentHelp("With --device: stop after this many fixes.", valueName: "n"))
    var count: Int?

    func validate() throws {
        guard device != nil else {
            if count != nil { throw ValidationError(.companionMissing(.countNeedsDevice)) }
            return
        }
        if !files.isEmpty { throw ValidationError(.conflict(.exclusive("capture files", "--device"))) }
        if sentences { throw ValidationError(.conflict(.sentencesFromDevice)) }
        if let count, let problem = Limits.decodeCount(count) {
            throw ValidationError(.outOfRange(problem))
        }
    }

    func run() throws {
        if let device { return try runLive(device) }
        var job = DecodeJob(inputs: files.map(CaptureInput.init(path:)))
        job.perSentence = sentences
        if let rolloverPivot {
            guard let pivot = CivilDate(iso: rolloverPivot), pivot.isValid else {
                throw ValidationError(.malformed(option: "--rollover-pivot", value: rolloverPivot, wanted: .date))
            }
            job.rollover = WeekRollover(pivot: pivot)
        }
        // A terminal on standard input is most often `gpsfence decode` typed without a file: say
        // what it waits for, or it looks hung.
        if (files.isEmpty || files.contains("-")) && StandardStream.input.isTerminal {
            OutputWriter.standardError.write(
                line:
                    "gpsfence: reading NMEA from standard input (a terminal); end it with Ctrl-D, or give a capture file"
            )
        }
        let summaries = try job.run(output: .standardOutput)
        if stats {
            for summary in summaries { OutputWriter.standardError.write(line: summary.report) }
        }
        if let problem = DecodeJob.noNMEAProblem(summaries) { throw problem }
    }

    func runLive(_ device: String) throws {
        let receiver = try ReceiverOptions.parse(["--device", device, "--baud", baud])
        try receiver.validate()
        var job = LiveDecodeJob(device: try DeviceChoice.resolve(receiver.address()))
        if let note = job.device.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        job.rate = try receiver.rate()
        job.autobaud = receiver.autobaud
        job.count = count
        if let rolloverPivot {
            guard let pivot = CivilDate(iso: rolloverPivot), pivot.isValid else {
                throw ValidationError(.malformed(option: "--rollover-pivot", value: rolloverPivot, wanted: .date))
            }
            job.rollover = WeekRollover(pivot: pivot)
        }
        StopSignals.install()
        _ = try job.run(output: .standardOutput) { OutputWriter.standardError.write(line: "gpsfence: \($0)") }
    }
}
