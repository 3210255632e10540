import Alerts
import ArgumentParser
import FenceRuntime
import Serial

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the USB serial devices and recognise GPS receivers among them.",
        discussion: """
            Uses libudev (sysfs when udev is unavailable): device node, /dev/serial/by-id link, USB \
            vendor:product, manufacturer, product and serial strings, and the kernel driver.

            Example:
              gpsfence devices --json
            """
    )

    @Flag(help: "Print one JSON array instead of text.")
    var json = false

    func run() throws {
        let discovery = DeviceDiscovery.scan()
        if json {
            OutputWriter.standardOutput.write(line: DevicesReport.json(discovery))
            if !discovery.hasUSBBus { OutputWriter.standardError.write(line: "gpsfence: \(DiscoveryProblem.noUSBBus)") }
        } else {
            for line in DevicesReport.text(discovery) { OutputWriter.standardOutput.write(line: line) }
            if let note = DevicesReport.gpsdNote() { OutputWriter.standardOutput.write(line: note) }
        }
        OutputWriter.standardOutput.flush()
    }
}
