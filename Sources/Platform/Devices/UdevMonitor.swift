import CUdev
import SystemPackage

/// Hotplug notifications for tty devices from the udev daemon.
///
/// Where no udev daemon runs (containers, CI) the monitor opens fine and simply never reports
/// anything; the reader's reopen-with-backoff covers that case on its own.
public final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when an event is waiting; put it in a `poll` set.
    public let descriptor: FileDescriptor

    public struct Event: Sendable, Equatable {
        /// "add", "remove", "change", "bind", ...
        public var action: String
        /// "/dev/ttyUSB0"; nil for events without a device node.
        public var node: String?
    }

    /// The corresponding C functions are `udev_monitor_new_from_netlink`,
    /// `udev_monitor_filter_add_match_subsystem_devtype` and `udev_monitor_enable_receiving`.
    public init?() {
        guard let udev = udev_new() else { return nil }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            udev_unref(udev)
            return nil
        }
        guard udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nil) >= 0,
            udev_monitor_enable_receiving(monitor) >= 0
        else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            return nil
        }
        self.udev = udev
        self.monitor = monitor
        descriptor = FileDescriptor(rawValue: udev_monitor_get_fd(monitor))
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// The next waiting event, or nil when none is waiting (the socket is non-blocking).
    /// The corresponding C function is `udev_monitor_receive_device`.
    public func next() -> Event? {
        guard let device = udev_monitor_receive_device(monitor) else { return nil }
        defer { udev_device_unref(device) }
        let action = udev_device_get_action(device).map { String(cString: $0) } ?? "change"
        return Event(action: action, node: udev_device_get_devnode(device).map { String(cString: $0) })
    }
}
