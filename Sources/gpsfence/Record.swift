import Alerts
import ArgumentParser
import FenceRuntime
import Geofence
import Serial

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a receiver's raw bytes into a capture file.",
        discussion: """
            Writes '#' header lines (device, USB ids, baud, start time) and then the bytes exactly as \
            they arrive, for 'decode' and 'replay'. Stops after --duration seconds, or cleanly on \
            Ctrl-C (SIGINT) or SIGTERM with everything received written.

            Example:
              gpsfence record --device auto --output drive.nmea --duration 600
              gpsfence record --device gpsd://localhost/dev/ttyACM0 --output drive.nmea   # gpsd keeps running
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    @Option(help: "Capture file to write.")
    var output: String

    @Option(help: "Seconds to record; until Ctrl-C when absent.")
    var duration: Double?

    func validate() throws {
        if let problem = duration.flatMap(Limits.recordDuration) { throw ValidationError(problem) }
    }

    func run() throws {
        StopSignals.install()
        var job = RecordJob(device: try DeviceChoice.resolve(receiver.device), output: output)
        if let note = job.device.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        job.rate = try receiver.rate()
        job.duration = duration
        job.autobaud = receiver.autobaud
        let summary = try job.run(
            now: currentUTCTime, shouldStop: { StopSignals.isRaised },
            log: { OutputWriter.standardError.write(line: "gpsfence: \($0)") })
        OutputWriter.standardError.write(
            line: "gpsfence: recorded \(summary.bytes) bytes in \(Int(summary.seconds.rounded())) s to \(output)")
        if summary.hungUp {
            let what =
                receiver.device.hasPrefix("gpsd://")
                ? "gpsd closed the connection" : "\(receiver.device) hung up (unplugged?)"
            throw RuntimeFailure(message: what + "; the capture is complete up to there")
        }
    }
}
