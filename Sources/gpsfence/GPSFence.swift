import ArgumentParser

@main
struct GPSFence: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpsfence",
        abstract: "Geofence alarms from a USB GPS: decode, check, replay and run.",
        subcommands: [Decode.self, Simulate.self]
    )
}
