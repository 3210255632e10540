import LiveLoop
import NMEA
import Platform
import Receivers
import SystemPackage

/// `gpsfence record`: the raw bytes of a receiver into a capture file (docs/running.md: `#` header
/// lines, then the bytes exactly as they came, so that `decode` and `replay` read it back). One
/// loop for every kind of receiver; what differs (finding the rate, asking gpsd for its sentences)
/// is a `RecordFeed`.
///
/// The header is written in two steps, so that a record killed while it still looks for the rate
/// (or waits for gpsd) leaves a file that says what it was recording rather than an empty one:
/// what is known at once (device, USB ids), then, once the feed is open, what it found (the baud
/// rate or gpsd's version) and the start time.
public struct RecordJob {
    public var device: DeviceChoice
    /// nil: autobaud (the port's current speed, then the remembered rate, first); no hunting on CDC-ACM.
    public var rate: BaudRate?
    public var output: CaptureOutput
    /// Seconds of recording after the feed is open; nil runs until SIGINT/SIGTERM.
    public var duration: Double?
    public var autobaud = Autobaud()
    public var memory = StateLocation.baudMemory

    public init(device: DeviceChoice, output: CaptureOutput) {
        self.device = device
        self.output = output
    }

    public struct Summary: Sendable {
        public var bytes: Int
        public var seconds: Double
        public var rate: BaudRate?
        /// The receiver hung up (unplugged, or gpsd closed the connection) before the end: the
        /// capture is complete up to there.
        public var hungUp: Bool
    }

    /// Records; `shouldStop` is polled at least every 100 ms. Bytes are written as they arrive, and
    /// on a stop what already arrived is read and written before closing.
    public func run(now: () -> UTCTime, shouldStop: () -> Bool, log: @escaping (String) -> Void) throws -> Summary {
        let file = try output.open()
        var recorded = false
        defer { file.close(discardingNewFile: !recorded) }
        try file.write(lines: headerLines())
        var feed: any RecordFeed
        do {
            switch device {
            case .port(let port):
                feed = try PortRecordFeed.open(
                    port.path, rate: rate, autobaud: autobaud, memory: memory, shouldStop: shouldStop, log: log)
            case .gpsd(let address):
                feed = try GpsdRecordFeed.open(address, shouldStop: shouldStop, log: log)
            }
        } catch let step as OpeningStep {
            // Asked to stop: the header stays, as it would after a kill.
            recorded = true
            throw RuntimeFailure.receiver(.stoppedWhileOpening(step, capture: output.name))
        }
        defer { feed.close() }
        recorded = true
        try file.write(lines: feed.headerLines + ["# start: \(now())"])
        try feed.leadingBytes.withUnsafeBytes { try file.write($0) }

        var summary = Summary(bytes: feed.leadingBytes.count, seconds: 0, rate: feed.rate, hungUp: false)
        let started = monotonicSeconds()
        while !shouldStop() {
            var timeout = 0.1
            if let duration {
                let remaining = duration - (monotonicSeconds() - started)
                if remaining <= 0 { break }
                timeout = min(timeout, remaining)
            }
            let open = try feed.read(timeout: timeout) { bytes in
                try file.write(bytes)
                summary.bytes += bytes.count
            }
            if !open {
                summary.hungUp = true
                break
            }
        }
        // Whatever already arrived is part of the recording.
        if !summary.hungUp {
            try feed.drain { bytes in
                try file.write(bytes)
                summary.bytes += bytes.count
            }
        }
        file.sync()
        summary.seconds = monotonicSeconds() - started
        return summary
    }

    /// What is known before the feed opens: the device (and where its link points), its USB ids.
    func headerLines() -> [String] {
        var header = ["# gpsfence record"]
        switch device {
        case .port(let port):
            let resolved = resolvePath(port.path)
            header.append("# device: \(port.path)" + (resolved != port.path ? " -> \(resolved)" : ""))
            if let info = port.info {
                let names = [info.manufacturer, info.product].compactMap { $0 }.joined(separator: " ")
                header.append(
                    "# usb: \(info.usbID ?? "?") \(names)" + (info.serial.map { " serial \($0)" } ?? "")
                        + " driver \(info.driver ?? "?")")
            }
        case .gpsd(let address):
            header.append("# device: \(address)")
        }
        return header
    }
}
