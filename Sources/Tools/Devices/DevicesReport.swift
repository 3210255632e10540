import JSONOutput
import NMEA
import Platform
import Receivers

/// `gpsfence devices`: the USB serial devices found, as text or JSON.
public enum DevicesReport {
    /// - Parameter models: what receivers said they are (`identify`), by device node.
    public static func text(_ discovery: DeviceDiscovery, models: [String: String] = [:]) -> [String] {
        if discovery.devices.isEmpty {
            return [
                discovery.hasUSBBus
                    ? "no USB serial devices found (via \(discovery.source)); plug the receiver in and check 'dmesg'"
                    : DiscoveryProblem.noUSBBus.description
            ]
        }
        var lines: [String] = []
        for device in discovery.devices {
            var line = device.node + "  " + (device.usbID ?? "????:????")
            let names = [device.manufacturer, device.product].compactMap { $0 }.joined(separator: " ")
            if !names.isEmpty { line += "  " + names }
            if let serial = device.serial { line += "  serial " + serial }
            line += "  driver " + (device.driver ?? "?")
            if let known = device.known {
                line +=
                    known.confidence == .receiver
                    ? "  [GPS: \(known.name)]" : "  [bridge used by GPS receivers: \(known.name)]"
            }
            lines.append(line)
            if let byID = device.byID { lines.append("    " + byID) }
            if let model = models[device.node] { lines.append("    receiver: " + model) }
            if let note = device.known?.note { lines.append("    note: " + note) }
        }
        if case .success(let chosen) = discovery.choose() {
            lines.append("--device auto would use \(chosen.preferredPath)")
        }
        return lines
    }

    /// When gpsd runs, it usually holds the receiver: say how to read through it instead of
    /// fighting it for the port (docs/hardware.md).
    public static func gpsdNote(_ processes: ProcessTable = ProcessTable()) -> String? {
        guard let gpsd = processes.running("gpsd").first else { return nil }
        return
            "gpsd is running (pid \(gpsd.pid)) and may hold the receiver: read through it with --device gpsd://localhost:2947 "
            + "(check it with: gpsfence doctor --device gpsd://)"
    }

    /// One JSON array; unknown values are null.
    public static func json(_ discovery: DeviceDiscovery, models: [String: String] = [:]) -> String {
        let objects = discovery.devices.map { device in
            var line = JSONLine()
            line.add("node", device.node)
            line.add("by_id", device.byID)
            line.add("vendor_id", device.vendorID.map { hex4($0) })
            line.add("product_id", device.productID.map { hex4($0) })
            line.add("manufacturer", device.manufacturer)
            line.add("product", device.product)
            line.add("serial", device.serial)
            line.add("driver", device.driver)
            line.add("kind", device.kind.rawValue)
            line.add("receiver", device.known?.name)
            line.add("recognised", device.known?.confidence.rawValue)
            line.add("model", models[device.node])
            return line.string
        }
        return JSONLine.array(json: objects)
    }

    /// Asks each device that no other process holds who it is (UBX-MON-VER, `$PMTK605`: queries
    /// that change nothing), at the rate autobaud finds; by device node. A port some program has
    /// open is left alone.
    public static func identify(_ discovery: DeviceDiscovery, processes: ProcessTable = ProcessTable()) -> [String:
        String]
    {
        var models: [String: String] = [:]
        for device in discovery.devices where processes.holders(of: device.node).holders.isEmpty {
            guard
                case .opened(let receiver)? = try? ReceiverPort.open(
                    device.node, rate: nil, autobaud: Autobaud(window: 1.5), memory: nil)
            else { continue }
            defer { receiver.close() }
            if let identity = try? ReceiverConversation(port: receiver.port).identify(seconds: 2) {
                models[device.node] = identity.description
            }
        }
        return models
    }

    static func hex4(_ value: UInt16) -> String { Hex.string(UInt64(value), digits: 4) }
}
