import Platform
import Receivers

/// The receiver a command reads, once `--device` (a `ReceiverAddress`) is resolved: a serial port
/// (for `auto`, the one discovery picked) or a gpsd.
public enum DeviceChoice: Sendable {
    case port(PortChoice)
    case gpsd(GpsdAddress)

    /// A serial port to open, with what discovery knows about it.
    public struct PortChoice: Sendable {
        public var path: String
        /// What discovery knows about it (nil for a path that is no USB device, such as a pty).
        public var info: SerialDeviceInfo?
        /// For `auto`: which device was picked, among how many, to tell the user.
        public var note: String?

        public init(path: String, info: SerialDeviceInfo?, note: String?) {
            self.path = path
            self.info = info
            self.note = note
        }
    }

    /// What to tell the user about the choice (which device `auto` picked), if anything.
    public var note: String? {
        switch self {
        case .port(let port): port.note
        case .gpsd: nil
        }
    }

    /// The receiver as messages name it: the path or the gpsd URL.
    public var name: String {
        switch self {
        case .port(let port): port.path
        case .gpsd(let address): address.description
        }
    }

    public static func resolve(_ address: ReceiverAddress, discovery: () -> DeviceDiscovery = { .scan() })
        throws(DiscoveryProblem) -> DeviceChoice
    {
        switch address {
        case .gpsd(let gpsd):
            // gpsd owns the receiver: nothing to discover here.
            return .gpsd(gpsd)
        case .auto:
            let scan = discovery()
            switch scan.choose() {
            case .success(let device):
                let others = scan.candidates.count - 1
                var note = "using \(device.preferredPath) (\(device.known?.name ?? device.usbID ?? "USB serial"))"
                if others > 0 {
                    note +=
                        "; \(others) other candidate\(others == 1 ? "" : "s"): "
                        + scan.candidates.dropFirst().map(\.preferredPath).joined(separator: ", ")
                }
                return .port(PortChoice(path: device.preferredPath, info: device, note: note))
            case .failure(let problem):
                throw problem
            }
        case .port(let path):
            let scan = discovery()
            let resolved = resolvePath(path)
            let info = scan.devices.first { $0.node == resolved || $0.byID == path }
            return .port(PortChoice(path: path, info: info, note: nil))
        }
    }
}
