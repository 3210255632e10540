import CUdev

/// Finds USB serial devices with libudev: every tty with a USB parent, with the parent's ids and
/// strings, the kernel driver, and the by-id link from udev's database (when a udev daemon made
/// one; else found by scanning /dev/serial/by-id).
public enum UdevDevices {
    /// nil when libudev cannot be initialised.
    /// The corresponding C functions are `udev_enumerate_add_match_subsystem`,
    /// `udev_enumerate_scan_devices` and `udev_device_get_parent_with_subsystem_devtype`.
    public static func devices() -> [SerialDeviceInfo]? {
        guard let udev = udev_new() else { return nil }
        defer { udev_unref(udev) }
        guard let enumerate = udev_enumerate_new(udev) else { return nil }
        defer { udev_enumerate_unref(enumerate) }
        udev_enumerate_add_match_subsystem(enumerate, "tty")
        guard udev_enumerate_scan_devices(enumerate) >= 0 else { return nil }
        let fallbackLinks = SysfsDevices().byIDLinks()
        var found: [SerialDeviceInfo] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            entry = udev_list_entry_get_next(current)
            guard let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            // The parent is owned by the child: no unref.
            guard let node = string(udev_device_get_devnode(device)),
                let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
            else { continue }
            var info = SerialDeviceInfo(node: node)
            info.vendorID = parseHex4(string(udev_device_get_sysattr_value(usb, "idVendor")))
            info.productID = parseHex4(string(udev_device_get_sysattr_value(usb, "idProduct")))
            info.manufacturer = string(udev_device_get_sysattr_value(usb, "manufacturer"))?.trimmingCharacters()
            info.product = string(udev_device_get_sysattr_value(usb, "product"))?.trimmingCharacters()
            info.serial = string(udev_device_get_sysattr_value(usb, "serial"))?.trimmingCharacters()
            info.driver = driver(of: device)
            info.byID = byIDLink(device) ?? fallbackLinks[String(node.split(separator: "/").last ?? "")]
            found.append(info)
        }
        return found.sorted { $0.node < $1.node }
    }

    /// The first driver bound on the way up: the usb-serial driver of a ttyUSB port, or cdc_acm on
    /// the interface of a ttyACM.
    static func driver(of device: OpaquePointer) -> String? {
        var current: OpaquePointer? = device
        while let node = current {
            if let name = string(udev_device_get_driver(node)) { return name }
            if string(udev_device_get_devtype(node)) == "usb_device" { return nil }
            current = udev_device_get_parent(node)
        }
        return nil
    }

    static func byIDLink(_ device: OpaquePointer) -> String? {
        var entry = udev_device_get_devlinks_list_entry(device)
        var links: [String] = []
        while let current = entry {
            if let name = string(udev_list_entry_get_name(current)), name.hasPrefix("/dev/serial/by-id/") {
                links.append(name)
            }
            entry = udev_list_entry_get_next(current)
        }
        return links.sorted().first
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
