import ArgumentParser
import Foundation

@main
struct GPSFence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpsfence",
        abstract: "Geofence alarms from a USB GPS: decode, check, replay and run.",
        version: gpsfenceVersion,
        subcommands: [Run.self, Replay.self, Decode.self, Check.self, Simulate.self, Record.self, Devices.self, Doctor.self, Visits.self]
    )

    /// Exit statuses of SPEC §9: 0 success, 1 runtime failure, 2 bad usage or bad input files.
    /// (ArgumentParser's own code for bad usage is 64.)
    static func main() {
        // Writes to a closed pipe (a hook that did not read, `gpsfence ... | head`) fail with EPIPE
        // where they are made, instead of killing the process.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
