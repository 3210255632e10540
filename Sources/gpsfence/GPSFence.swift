import ArgumentParser
import Delivery
import Foundation
import Jobs
import LiveLoop
import Platform
import Presentation
import Tools

@main
struct GPSFence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpsfence",
        abstract: "Geofence alarms from a USB GPS: decode, check, replay and run.",
        version: gpsfenceVersion,
        subcommands: [
            Run.self, Replay.self, Decode.self, Check.self, Simulate.self, Configure.self, Record.self, Devices.self,
            Doctor.self, Visits.self, Status.self, Report.self, Sync.self, Fences.self, Ack.self,
        ]
    )

    /// Exit statuses of docs/running.md: 0 success, 1 runtime failure, 2 bad usage or bad input files.
    /// Every error ends here; `classify` decides which is which. (ArgumentParser's own code for bad
    /// usage is 64; docs/running.md wants 2.)
    static func main() {
        // Writes to a closed pipe (a hook that did not read, `gpsfence ... | head`) fail with EPIPE
        // where they are made, instead of killing the process.
        ignoreBrokenPipes()
        // Every program started by exec has at least its name in argv (Linux puts "" there when a
        // caller passes none). An empty list means the runtime could not read the command line:
        // the statically linked Swift runtime takes it from /proc/self/cmdline, which a chroot
        // without /proc lacks. Parsing nothing would print the help and exit 0 for any command,
        // `gpsfence run ...` included (docs/packaging.md).
        if CommandLine.arguments.isEmpty {
            OutputWriter.standardError.write(
                line: "gpsfence: cannot read the command line (/proc/self/cmdline): is /proc mounted? "
                    + "In a chroot: mount -t proc proc /proc"
            )
            Foundation.exit(ExitStatus.runtimeFailure.rawValue)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            OutputWriter.standardOutput.flush()
            if classify(error) == nil, exitCode(for: error) != .success,
                let hint = Suggestions.hint(for: Array(CommandLine.arguments.dropFirst()))
            {
                OutputWriter.standardError.write(line: "gpsfence: \(hint)")
                Foundation.exit(ExitStatus.badInput.rawValue)
            }
            if let (status, message) = classify(error) {
                OutputWriter.standardError.write(line: "gpsfence: \(message)")
                Foundation.exit(status.rawValue)
            }
            if exitCode(for: error) == .validationFailure {
                OutputWriter.standardError.write(line: fullMessage(for: error))
                Foundation.exit(ExitStatus.badInput.rawValue)
            }
            exit(withError: error)
        }
    }

    /// Reached only when no subcommand was given: the usage goes to standard error and the exit
    /// status says that nothing was done.
    func run() throws {
        OutputWriter.standardError.write(line: GPSFence.helpMessage())
        Foundation.exit(ExitStatus.usage.rawValue)
    }
}
