import NMEA
import Serial
import SystemPackage

extension RecordJob {
    /// `record --device gpsd://...` (SPEC §12): a capture taken without stopping gpsd. Asks gpsd
    /// for the sentences as it received them (`"nmea":true`) and writes them after the usual `#`
    /// header, so that `decode` and `replay` read the file like one recorded from the port. gpsd
    /// passes on only sentences whose checksum it accepted; its own JSON lines are not written.
    func recordFromGpsd(
        _ address: GpsdAddress, now: () -> UTCTime, shouldStop: () -> Bool, log: (String) -> Void
    ) throws -> Summary {
        let file = try openOutput()
        defer { try? file.close() }
        let connection: GpsdConnection
        do {
            connection = try GpsdConnection.connect(address)
            try connection.watch(GpsdConnection.Watch(json: false, nmea: true))
        } catch {
            throw RuntimeFailure(
                message:
                    "cannot record from gpsd at \(address.endpoint): \(error.description); is gpsd running? (systemctl status gpsd)"
            )
        }
        defer { connection.close() }

        var release: String?
        var devices: [String] = []
        var headerWritten = false
        var summary = Summary(bytes: 0, seconds: 0, rate: nil, hungUp: false)
        var failure: Error?
        let started = monotonicSeconds()
        let lineEnd: [UInt8] = [0x0D, 0x0A]

        func writeHeader() throws {
            var header = ["# gpsfence record", "# device: \(address)"]
            header.append(
                "# gpsd: " + (release ?? "?") + (devices.isEmpty ? "" : ", devices: " + devices.joined(separator: ", "))
            )
            header.append("# start: \(now())")
            try write(file, Array((header.joined(separator: "\n") + "\n").utf8))
            headerWritten = true
        }

        reading: while !shouldStop(), failure == nil {
            var timeout = 0.1
            if let duration {
                let remaining = duration - (monotonicSeconds() - started)
                if remaining <= 0 { break }
                timeout = min(timeout, remaining)
            }
            let outcome: GpsdConnection.ReadOutcome
            do {
                outcome = try connection.readLines(timeout: timeout) { line in
                    guard failure == nil, let first = line.first else { return }
                    do {
                        if first == UInt8(ascii: "$") || first == UInt8(ascii: "!") {
                            if !headerWritten { try writeHeader() }
                            try write(file, line)
                            try lineEnd.withUnsafeBytes { try write(file, $0) }
                            summary.bytes += line.count + 2
                        } else if let report = GpsdReport(line) {
                            switch report.reportClass {
                            case .version: release = report.string("release")
                            case .devices:
                                devices = report.devices().map { $0.path + ($0.driver.map { " (\($0))" } ?? "") }
                            case .watch:
                                // gpsd has answered the watch: sentences follow.
                                if !headerWritten { try writeHeader() }
                            case .error:
                                log("gpsd says: \(report.string("message") ?? "an error")")
                            default: break
                            }
                        }
                    } catch {
                        failure = error
                    }
                }
            } catch {
                throw RuntimeFailure(
                    message:
                        "reading gpsd at \(address.endpoint) failed: \(error.description); the capture is complete up to there"
                )
            }
            if outcome == .closed {
                summary.hungUp = true
                break reading
            }
        }
        if let failure { throw failure }
        if !headerWritten { try writeHeader() }
        _ = fsyncQuietly(file)
        summary.seconds = monotonicSeconds() - started
        return summary
    }
}
