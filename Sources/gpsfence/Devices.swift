import ArgumentParser
import Delivery
import Jobs
import LiveLoop
import Presentation
import Receivers
import Tools

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the USB serial devices and recognise GPS receivers among them.",
        discussion: """
            Uses libudev (sysfs when udev is unavailable): device node, /dev/serial/by-id link, USB \
            vendor:product, manufacturer, product and serial strings, and the kernel driver.

            Example:
              gpsfence devices --json
              gpsfence devices --identify   # model and firmware (u-blox, MediaTek)
            """
    )

    @Flag(help: "Print one JSON array instead of text.")
    var json = false

    @Flag(
        help:
            "Also ask each receiver no other program holds for its model and firmware (UBX-MON-VER, $PMTK605; queries only)."
    )
    var identify = false

    func run() throws {
        let discovery = DeviceDiscovery.scan()
        let models = identify ? DevicesReport.identify(discovery) : [:]
        if json {
            OutputWriter.standardOutput.write(line: DevicesReport.json(discovery, models: models))
            if !discovery.hasUSBBus { OutputWriter.standardError.write(line: "gpsfence: \(DiscoveryProblem.noUSBBus)") }
        } else {
            for line in DevicesReport.text(discovery, models: models) { OutputWriter.standardOutput.write(line: line) }
            if let note = DevicesReport.gpsdNote() { OutputWriter.standardOutput.write(line: note) }
        }
        OutputWriter.standardOutput.flush()
    }
}
