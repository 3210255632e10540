import ArgumentParser
import Delivery
import Fences
import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Tools

struct Fences: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fences",
        abstract: "Check a fence file, add a fence where you stand, or import fences from OpenStreetMap, KML or GPX.",
        subcommands: [Lint.self, Add.self, Import.self]
    )

    /// Reached only when no subcommand was given: as for `gpsfence` alone, the usage goes to
    /// standard error and the exit status says that nothing was done.
    func run() throws {
        OutputWriter.standardError.write(line: GPSFence.helpMessage(for: Fences.self))
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    struct Lint: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Find fences that load but will not do what was meant.",
            discussion: """
                Prints one line per finding, naming the feature and how to fix it: features \
                without an id, duplicate and overlapping fences, a feature with latitude and \
                longitude swapped, tiny and huge fences, self-intersecting rings \
                (docs/fences.md, "Checking a fence file"). Exit status 0 when there is nothing \
                to report, 1 when there are findings, 2 when the file does not load.

                Example:
                  gpsfence fences lint fences.geojson
                """
        )

        @Argument(help: ArgumentHelp("Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'.", valueName: "file"))
        var file: String

        @Flag(help: "Print one JSON object per finding.")
        var json = false

        func run() throws {
            var job = FenceLintJob(path: file)
            job.json = json
            if try job.run() > 0 { throw ExitCode(ExitStatus.runtimeFailure.rawValue) }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a circle at the current fix to the fence file.",
            discussion: """
                Takes the last fix of the running 'gpsfence run' from its state file and adds a \
                circle there to its fence file (or --fences FILE), written atomically with the \
                file's mode kept; the run picks it up within seconds (docs/fences.md, "Adding a \
                fence where you stand").

                Example:
                  gpsfence fences add --here "Low bridge" --radius 75
                """
        )

        @Flag(help: "At the last fix of the running 'gpsfence run' (the only place there is for now).")
        var here = false

        @Argument(help: "The fence's name.")
        var name: String

        @Option(parsing: .unconditional, help: "Radius in metres.", transform: DecimalNumber.read)
        var radius: Double

        @Option(help: "The fence's id (default: from the name, 'Low bridge' -> low-bridge).")
        var id: String?

        @Option(help: ArgumentHelp("Fence file (default: the one the run uses).", valueName: "file"))
        var fences: String?

        @Option(help: ArgumentHelp("State file (default: $XDG_STATE_HOME/gpsfence/state.sqlite).", valueName: "path"))
        var state: String?

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp("Refuse a fix older than this (90s, 5m). (default: 10 min)", valueName: "duration"),
            transform: Seconds.read)
        var maxAge: Seconds = Seconds(600)

        func validate() throws {
            guard here else { throw ValidationError(.missing(.here)) }
            if let problem = Limits.checkMetres("--radius", radius) { throw ValidationError(.outOfRange(problem)) }
        }

        func run() throws {
            var job = FenceAddJob(statePath: state ?? StateLocation.defaultPath, name: name, radius: radius)
            job.fencesPath = fences
            job.id = id
            job.maxAge = maxAge.value
            let line = try job.run(now: currentUTCTime().millisecondsSinceEpoch)
            OutputWriter.standardOutput.write(line: line)
            OutputWriter.standardOutput.flush()
        }
    }
}
