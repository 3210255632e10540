import Foundation
import Platform
import Receivers
import Testing

/// Discovery parsing on a fake sysfs tree laid out as the kernel does (CI has no USB bus).
@Suite struct DiscoveryTests {
    /// Builds root/sys and root/dev for a u-blox 8 on ttyACM0, a BU-353 (PL2303) on ttyUSB0 and a
    /// non-USB ttyS0.
    func fakeTree() throws -> String {
        let root = temporaryDirectory()
        let fm = FileManager.default
        func dir(_ path: String) throws {
            try fm.createDirectory(atPath: root + path, withIntermediateDirectories: true)
        }
        func file(_ path: String, _ text: String) throws {
            try (text + "\n").write(toFile: root + path, atomically: true, encoding: .utf8)
        }
        func link(_ path: String, _ target: String) throws {
            try fm.createSymbolicLink(atPath: root + path, withDestinationPath: target)
        }

        let ublox = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1"
        try dir(ublox + "/1-1:1.0/tty/ttyACM0")
        try file(ublox + "/idVendor", "1546")
        try file(ublox + "/idProduct", "01a8")
        try file(ublox + "/manufacturer", "u-blox AG - www.u-blox.com")
        try file(ublox + "/product", "u-blox GNSS receiver")
        try dir("/sys/bus/usb/drivers/cdc_acm")
        try dir("/sys/bus/usb-serial/drivers/pl2303")
        try link(ublox + "/1-1:1.0/driver", "../../../../../../bus/usb/drivers/cdc_acm")

        let bu353 = "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2"
        try dir(bu353 + "/1-2:1.0/ttyUSB0/tty/ttyUSB0")
        try file(bu353 + "/idVendor", "067b")
        try file(bu353 + "/idProduct", "2303")
        try file(bu353 + "/product", "USB-Serial Controller")
        try link(bu353 + "/1-2:1.0/ttyUSB0/driver", "../../../../../../../bus/usb-serial/drivers/pl2303")

        try dir("/sys/devices/platform/serial8250/tty/ttyS0")
        try dir("/sys/class/tty")
        try link("/sys/class/tty/ttyACM0", "../../devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/tty/ttyACM0")
        try link("/sys/class/tty/ttyACM0/device", "../../../1-1:1.0")
        try link("/sys/class/tty/ttyUSB0", "../../devices/pci0000:00/0000:00:14.0/usb1/1-2/1-2:1.0/ttyUSB0/tty/ttyUSB0")
        try link("/sys/class/tty/ttyUSB0/device", "../../../ttyUSB0")
        try link("/sys/class/tty/ttyS0", "../../devices/platform/serial8250/tty/ttyS0")
        try link("/sys/class/tty/ttyS0/device", "../../../serial8250")

        try dir("/dev/serial/by-id")
        try link("/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00", "../../ttyACM0")
        try link("/dev/serial/by-id/usb-Prolific_Technology_Inc._USB-Serial_Controller-if00-port0", "../../ttyUSB0")
        return root
    }

    @Test func readsIdsStringsDriverAndByIdLinkFromSysfs() throws {
        let sysfs = SysfsDevices(root: try fakeTree())
        #expect(sysfs.hasUSBBus)
        let devices = sysfs.devices()
        #expect(devices.map(\.node) == ["/dev/ttyACM0", "/dev/ttyUSB0"], "ttyS0 has no USB parent")
        let ublox = devices[0]
        #expect(ublox.usbID == "1546:01a8")
        #expect(ublox.manufacturer == "u-blox AG - www.u-blox.com")
        #expect(ublox.product == "u-blox GNSS receiver")
        #expect(ublox.serial == nil)
        #expect(ublox.driver == "cdc_acm")
        #expect(ublox.kind == .cdcACM)
        #expect(ublox.byID == "/dev/serial/by-id/usb-u-blox_AG_-_www.u-blox.com_u-blox_GNSS_receiver-if00")
        #expect(ublox.known?.name == "u-blox 8")
        let bu353 = devices[1]
        #expect(bu353.usbID == "067b:2303")
        #expect(bu353.driver == "pl2303")
        #expect(bu353.kind == .usbSerialBridge)
        #expect(bu353.known?.confidence == .bridge)
    }

    @Test func autoPicksTheReceiverBeforeABridgeChip() throws {
        let discovery = DeviceDiscovery.scan(sysfs: SysfsDevices(root: try fakeTree()))
        #expect(discovery.source == "sysfs")
        let chosen = try discovery.choose().get()
        #expect(chosen.node == "/dev/ttyACM0")
        #expect(chosen.preferredPath.hasPrefix("/dev/serial/by-id/usb-u-blox"))
    }

    @Test func noUSBBusIsSaidPlainly() {
        let discovery = DeviceDiscovery.scan(sysfs: SysfsDevices(root: temporaryDirectory()))
        #expect(!discovery.hasUSBBus)
        guard case .failure(let problem) = discovery.choose() else {
            Issue.record("chose a device on an empty tree")
            return
        }
        #expect(problem.description.contains("no USB bus"))
    }

    @Test func recognisesTheReceiversTheIssueLists() {
        for (vendor, product) in [
            (0x1546, 0x01A5), (0x1546, 0x01A9), (0x067B, 0x2303), (0x10C4, 0xEA60),
            (0x0403, 0x6001), (0x0403, 0x6015), (0x1A86, 0x7523),
        ] {
            #expect(KnownReceiver.match(vendor: UInt16(vendor), product: UInt16(product)) != nil)
        }
        #expect(KnownReceiver.match(vendor: 0x1546, product: 0x01A4) == nil)
        #expect(KnownReceiver.match(vendor: 0x046D, product: 0xC52B) == nil, "a Logitech receiver is no GPS")
    }

    @Test func libudevEnumerationRunsOnThisMachine() {
        // Whatever this machine has: libudev must answer, and agree with sysfs on the USB ttys.
        let viaUdev = UdevDevices.devices()
        #expect(viaUdev != nil)
        #expect(viaUdev?.map(\.node) == SysfsDevices().devices().map(\.node))
    }
}

/// The udev rules cover what discovery recognises, and never open a device to every user.
@Suite struct UdevRulesTests {
    let rules: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("udev/60-gpsfence.rules"), encoding: .utf8)) ?? ""
    }()

    @Test func everyRecognisedIdHasARule() {
        #expect(!rules.isEmpty)
        // Garmin's USB receivers speak a binary protocol through the garmin_gps driver by default: recognised
        // by `devices` (with a note), but not given GPS access rules.
        for receiver in KnownReceiver.all where receiver.vendorID != 0x091E {
            for product in receiver.productIDs {
                let vendor = String(format: "%04x", receiver.vendorID)
                let id = String(format: "%04x", product)
                #expect(
                    rules.contains(#"ATTRS{idVendor}=="\#(vendor)", ATTRS{idProduct}=="\#(id)""#), "\(receiver.name)")
            }
        }
    }

    @Test func rulesGrantByGroupOrSeatAndKeepModemManagerAway() {
        let modes = rules.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            guard let range = line.range(of: #"MODE=""#) else { return nil }
            return String(line[range.upperBound...].prefix(4))
        }
        #expect(modes == ["0660"])
        #expect(rules.contains(#"TAG+="uaccess""#))
        #expect(rules.contains(#"ENV{ID_MM_DEVICE_IGNORE}="1""#))
        #expect(rules.contains(#"ENV{SYSTEMD_WANTS}+="gpsfence@%k.service""#))
        #expect(rules.contains(#"SYMLINK+="gps%n""#))
    }
}
