import Platform

/// The USB serial devices of this machine, and the choice `--device auto` makes (docs/hardware.md).
public struct DeviceDiscovery: Sendable {
    public var devices: [SerialDeviceInfo]
    /// "udev" or "sysfs": where the list came from.
    public var source: String
    public var hasUSBBus: Bool

    /// libudev first; sysfs read directly when libudev is unusable.
    public static func scan(sysfs: SysfsDevices = SysfsDevices()) -> DeviceDiscovery {
        if sysfs.root.isEmpty || sysfs.root == "/", let devices = UdevDevices.devices() {
            return DeviceDiscovery(devices: devices, source: "udev", hasUSBBus: sysfs.hasUSBBus)
        }
        return DeviceDiscovery(devices: sysfs.devices(), source: "sysfs", hasUSBBus: sysfs.hasUSBBus)
    }

    /// Devices that look like a GPS: a receiver's own id first, then bridge chips receivers use;
    /// within each, by stable by-id name.
    public var candidates: [SerialDeviceInfo] {
        let known = devices.filter { $0.known != nil }
        return known.sorted { a, b in
            let rankA = a.known?.confidence == .receiver ? 0 : 1
            let rankB = b.known?.confidence == .receiver ? 0 : 1
            return rankA != rankB ? rankA < rankB : a.preferredPath < b.preferredPath
        }
    }

    /// The device `auto` picks, or why there is none.
    public func choose() -> Result<SerialDeviceInfo, DiscoveryProblem> {
        if let first = candidates.first { return .success(first) }
        if !hasUSBBus { return .failure(.noUSBBus) }
        if devices.isEmpty { return .failure(.noUSBSerialDevices) }
        return .failure(.noneRecognised(devices))
    }
}

public enum DiscoveryProblem: Error, Sendable, CustomStringConvertible {
    case noUSBBus
    case noUSBSerialDevices
    case noneRecognised([SerialDeviceInfo])

    public var description: String {
        switch self {
        case .noUSBBus:
            "this machine has no USB bus (/sys/bus/usb is missing, as in most containers and CI runners): "
                + "no USB GPS can be attached here; give --device a path (a UART such as /dev/serial0, or a "
                + "'gpsfence simulate' pseudo-terminal)"
        case .noUSBSerialDevices:
            "no USB serial device is plugged in; plug the receiver in and check 'dmesg' for a new ttyACM or ttyUSB"
        case .noneRecognised(let devices):
            "no known GPS receiver among the USB serial devices ("
                + devices.map { "\($0.node) \($0.usbID ?? "?")" }
                .joined(separator: ", ") + "); name one with --device"
        }
    }
}
