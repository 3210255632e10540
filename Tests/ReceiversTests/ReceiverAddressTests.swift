import Receivers
import Testing

@Suite struct ReceiverAddressTests {
    func parse(_ argument: String) -> Result<ReceiverAddress, ReceiverAddressError> {
        ReceiverAddress.parse(argument)
    }

    @Test func theThreeKindsAreTold() throws {
        #expect(try parse("auto").get() == .auto)
        #expect(try parse("/dev/ttyACM0").get() == .port("/dev/ttyACM0"))
        #expect(try parse("ttyUSB0").get() == .port("ttyUSB0"))
        #expect(
            try parse("/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0").get()
                == .port("/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0"))
        #expect(try parse("./gpsd:/x").get() == .port("./gpsd:/x"))
        #expect(try parse("gpsd://").get() == .gpsd(GpsdAddress()))
        #expect(
            try parse("GPSD://pi.local:2948/dev/ttyACM0").get()
                == .gpsd(GpsdAddress(host: "pi.local", port: 2948, device: "/dev/ttyACM0")))
    }

    @Test func typosAndOtherSchemesAreRefusedWithTheFormToWrite() {
        for typo in [
            "gpsd:/", "gpsd:/localhost", "gpsd:localhost", "gpsd:", "tcp://host:2947", "serial:///dev/ttyS0", "",
        ] {
            guard case .failure(let error) = parse(typo) else {
                Issue.record("'\(typo)' was accepted")
                continue
            }
            #expect(error.description.hasPrefix("--device '\(typo)'"), "\(error)")
            #expect(error.description.contains("gpsd://") || typo.isEmpty, "\(error)")
        }
        guard case .failure(let port) = parse("gpsd://localhost:http") else { return }
        #expect(port.description.contains("gpsd://[HOST][:PORT][/DEVICE]") && port.description.contains("'http'"))
    }
}
