import Platform

/// The last rate that worked, per device, kept in `baud-rates` in the state folder the caller
/// names (`StateLocation` in the runtime), so that the next start tries it right after the port's
/// current speed instead of hunting through the wrong rates before it.
///
/// One line per device: the rate, a tab, the device path as the user named it (a by-id path stays
/// the same when ttyUSB0 becomes ttyUSB1). Written to a temporary file and renamed into place, so
/// a crash never leaves half a file.
public struct BaudMemory: Sendable {
    public let directory: String
    public var file: String { directory + "/baud-rates" }

    public init(directory: String) { self.directory = directory }

    public func recall(_ device: String) -> BaudRate? {
        entries().first { $0.device == device }?.rate
    }

    /// Best effort: a state directory we cannot write only costs a slower next start.
    public func remember(_ rate: BaudRate, for device: String) {
        var lines = entries().filter { $0.device != device }
        lines.append((device, rate))
        let text = lines.map { "\($0.rate.bitsPerSecond)\t\($0.device)\n" }.joined()
        makeDirectories(directory)
        try? replaceFile(
            file, temporary: file + ".\(currentProcessID()).tmp", mode: ReplaceMode(creation: 0o600, exclusive: false),
            with: Array(text.utf8))
    }

    func entries() -> [(device: String, rate: BaudRate)] {
        guard let bytes = try? readWholeFile(file) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[0]), let rate = BaudRate(value) else { return nil }
            return (String(parts[1]), rate)
        }
    }
}

/// `mkdir -p`, mode 0700 (state is per user).
func makeDirectories(_ path: String) {
    var prefix = ""
    for component in path.split(separator: "/") {
        prefix += "/" + component
        _ = makeFolder(prefix, mode: 0o700)
    }
}
