import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers
import Tools

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a receiver's raw bytes into a capture file.",
        discussion: """
            Writes '#' header lines (device, USB ids, baud, start time) and then the bytes exactly as \
            they arrive, for 'decode' and 'replay'. Stops after --duration seconds, or cleanly on \
            Ctrl-C (SIGINT) or SIGTERM with everything received written. An existing capture is \
            never overwritten unless --force is given; --append adds a new recording to it.

            Example:
              gpsfence record --device auto --output drive.nmea --duration 600
              gpsfence record --device gpsd://localhost/dev/ttyACM0 \\
                --output drive.nmea   # gpsd keeps running
              gpsfence record --device auto --output - | gpsfence decode --json
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    @Option(help: ArgumentHelp("Capture file to write; '-' writes standard output.", valueName: "file"))
    var output: String

    @Flag(help: "Replace the capture file if it exists.")
    var force = false

    @Flag(help: "Add this recording (with its own header) to the end of the capture file.")
    var append = false

    @Option(
        parsing: .unconditional, help: "Seconds to record; until Ctrl-C when absent.", transform: DecimalNumber.read)
    var duration: Double?

    func validate() throws {
        if force && append {
            throw ValidationError(.conflict(.exclusive("--force", "--append")))
        }
        if let problem = duration.flatMap(Limits.recordDuration) { throw ValidationError(.outOfRange(problem)) }
    }

    func run() throws {
        StopSignals.install()
        let mode: CaptureOutput.Mode = force ? .overwrite : append ? .append : .create
        let capture = CaptureOutput(argument: output, mode: mode)
        var job = RecordJob(device: try DeviceChoice.resolve(receiver.address()), output: capture)
        if let note = job.device.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        job.rate = try receiver.rate()
        job.duration = duration
        job.autobaud = receiver.autobaud
        let summary = try job.run(
            now: currentUTCTime, shouldStop: { StopSignals.isRaised },
            log: { OutputWriter.standardError.write(line: "gpsfence: \($0)") })
        OutputWriter.standardError.write(
            line: "gpsfence: recorded \(summary.bytes) bytes in \(Int(summary.seconds.rounded())) s to \(capture.name)")
        if summary.hungUp {
            let end: RecordingEnd =
                switch job.device {
                case .gpsd: .gpsdClosed
                case .port(let port): .portHungUp(path: port.path)
                }
            throw RuntimeFailure.receiver(.hungUp(end))
        }
    }
}
