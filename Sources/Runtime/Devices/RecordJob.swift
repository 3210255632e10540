import Glibc
import NMEA
import Serial
import SystemPackage

/// `gpsfence record`: the raw bytes of a receiver into a capture file (SPEC §3 format: `#` header
/// lines, then the bytes exactly as they came, so that `decode` and `replay` read it back).
public struct RecordJob {
    public var device: DeviceChoice
    /// nil: autobaud (remembered rate first); no hunting on CDC-ACM.
    public var rate: BaudRate?
    public var output: String
    /// Seconds of recording after the rate is found; nil runs until SIGINT/SIGTERM.
    public var duration: Double?
    public var autobaud = Autobaud()
    public var memory = StateLocation.baudMemory

    public init(device: DeviceChoice, output: String) {
        self.device = device
        self.output = output
    }

    public struct Summary: Sendable {
        public var bytes: Int
        public var seconds: Double
        public var rate: BaudRate?
        /// The device hung up (unplugged) before the end: the capture is complete up to there.
        public var hungUp: Bool
    }

    /// Records; `shouldStop` is polled at least every 100 ms. Bytes are written as they arrive, and
    /// on a stop what the port still holds is read and written before closing.
    public func run(now: () -> UTCTime, shouldStop: () -> Bool, log: (String) -> Void) throws -> Summary {
        if GpsdAddress.isGpsd(device.path) {
            return try recordFromGpsd(try gpsdAddress(device.path), now: now, shouldStop: shouldStop, log: log)
        }
        let file = try openOutput()
        defer { try? file.close() }
        let receiver: ReceiverPort
        switch try ReceiverPort.open(
            device.path, rate: rate, autobaud: autobaud, memory: memory, shouldStop: shouldStop)
        {
        case .opened(let opened): receiver = opened
        case .stopped:
            throw RuntimeFailure(message: "stopped while looking for the baud rate of \(device.path); nothing recorded")
        case .noNMEA(let attempts):
            let tried = attempts.map { "\($0.rate) (\($0.bytes) bytes, \($0.checksummedSentences) sentences)" }
            throw RuntimeFailure(
                message: "\(device.path): no valid NMEA at any rate; tried " + tried.joined(separator: ", "))
        }
        defer { receiver.close() }
        let port = receiver.port
        let leadingBytes = receiver.leadingBytes
        let rateNote: String
        switch receiver.rateSource {
        case .pinned: rateNote = "\(port.rate.map(\.description) ?? "?") (pinned)"
        case .none: rateNote = "none (CDC-ACM: the USB link has no baud rate)"
        case .autobaud:
            rateNote = "\(receiver.rate.map(\.description) ?? "?") (autobaud)"
            log("\(device.path): \(receiver.rate.map(\.description) ?? "?") baud")
        }

        var header = [
            "# gpsfence record",
            "# device: \(device.path)"
                + (resolvePath(device.path) != device.path ? " -> \(resolvePath(device.path))" : ""),
        ]
        if let info = device.info {
            let names = [info.manufacturer, info.product].compactMap { $0 }.joined(separator: " ")
            header.append(
                "# usb: \(info.usbID ?? "?") \(names)" + (info.serial.map { " serial \($0)" } ?? "")
                    + " driver \(info.driver ?? "?")")
        }
        header.append("# baud: \(rateNote)")
        header.append("# start: \(now())")
        try write(file, Array((header.joined(separator: "\n") + "\n").utf8))
        try write(file, leadingBytes)

        var summary = Summary(bytes: leadingBytes.count, seconds: 0, rate: port.rate, hungUp: false)
        if receiver.rateSource == .none { summary.rate = nil }
        let started = monotonicSeconds()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        reading: while !shouldStop() {
            var timeout = 0.1
            if let duration {
                let remaining = duration - (monotonicSeconds() - started)
                if remaining <= 0 { break }
                timeout = min(timeout, remaining)
            }
            switch try port.read(into: buffer, timeout: timeout) {
            case .timeout: continue
            case .hangUp:
                summary.hungUp = true
                break reading
            case .data(let count):
                try write(file, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                summary.bytes += count
            }
        }
        // Whatever already arrived is part of the recording.
        while !summary.hungUp, case .data(let count) = try port.readAvailable(into: buffer) {
            try write(file, UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            summary.bytes += count
        }
        _ = fsyncQuietly(file)
        summary.seconds = monotonicSeconds() - started
        return summary
    }

    func openOutput() throws -> FileDescriptor {
        do {
            return try FileDescriptor.open(
                FilePath(output), .writeOnly, options: [.create, .truncate],
                permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw InputError(message: "cannot write '\(output)': \(error)")
        }
    }

    func write(_ file: FileDescriptor, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write(file, $0) }
    }

    func write(_ file: FileDescriptor, _ bytes: UnsafeRawBufferPointer) throws {
        do {
            try file.writeAll(bytes)
        } catch {
            // The file opened, so the path was good: a full or failing disk is not bad input.
            throw RuntimeFailure(message: "cannot write '\(output)': \(error)")
        }
    }
}

/// The corresponding C function is `fsync`.
func fsyncQuietly(_ file: FileDescriptor) -> Bool { fsync(file.rawValue) == 0 }
