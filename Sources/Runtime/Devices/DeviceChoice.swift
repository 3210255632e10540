import Serial

/// Turns `--device PATH|auto|gpsd://...` into a path to open (SPEC §3).
public struct DeviceChoice: Sendable {
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

    public static func resolve(_ argument: String?, discovery: () -> DeviceDiscovery = { .scan() })
        throws(DiscoveryProblem) -> DeviceChoice
    {
        // gpsd owns the receiver: nothing to discover here (the address is parsed by the job).
        if let argument, GpsdAddress.isGpsd(argument) { return DeviceChoice(path: argument, info: nil, note: nil) }
        let scan = discovery()
        guard let argument, argument != "auto" else {
            switch scan.choose() {
            case .success(let device):
                let others = scan.candidates.count - 1
                var note = "using \(device.preferredPath) (\(device.known?.name ?? device.usbID ?? "USB serial"))"
                if others > 0 {
                    note +=
                        "; \(others) other candidate\(others == 1 ? "" : "s"): "
                        + scan.candidates.dropFirst().map(\.preferredPath).joined(separator: ", ")
                }
                return DeviceChoice(path: device.preferredPath, info: device, note: note)
            case .failure(let problem):
                throw problem
            }
        }
        let resolved = resolvePath(argument)
        let info = scan.devices.first { $0.node == resolved || $0.byID == argument }
        return DeviceChoice(path: argument, info: info, note: nil)
    }
}
