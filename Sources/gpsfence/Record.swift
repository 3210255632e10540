import Alerts
import ArgumentParser
import FenceRuntime
import Geofence
import Serial

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: "Device path, 'auto' for the USB GPS found by libudev, or gpsd://[HOST][:PORT][/DEVICE] to read through a running gpsd.")
    var device = "auto"

    @Option(help: "Line speed, or 'auto' to detect it.")
    var baud = "auto"

    @Option(help: "Capture file to write.")
    var output: String

    @Option(help: "Seconds to record; until Ctrl-C when absent.")
    var duration: Double?

    @Option(help: ArgumentHelp("Seconds autobaud listens at each rate.", visibility: .hidden))
    var autobaudWindow = 2.5

    func validate() throws {
        _ = try parseBaud(baud)
        if let problem = duration.flatMap(Limits.recordDuration) ?? Limits.autobaudWindow(autobaudWindow) { throw ValidationError(problem) }
    }

    func run() throws {
        StopSignals.install()
        var job = RecordJob(device: try DeviceChoice.resolve(device), output: output)
        if let note = job.device.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        job.rate = try parseBaud(baud)
        job.duration = duration
        job.autobaud = Autobaud(window: autobaudWindow)
        let summary = try job.run(now: currentUTCTime, shouldStop: { StopSignals.isRaised }) {
            OutputWriter.standardError.write(line: "gpsfence: \($0)")
        }
        OutputWriter.standardError.write(line: "gpsfence: recorded \(summary.bytes) bytes in \(Int(summary.seconds.rounded())) s to \(output)")
        if summary.hungUp {
            let what = device.hasPrefix("gpsd://") ? "gpsd closed the connection" : "\(device) hung up (unplugged?)"
            throw RuntimeFailure(message: what + "; the capture is complete up to there")
        }
    }
}
