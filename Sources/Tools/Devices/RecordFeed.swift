import Fences
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers

/// What `RecordJob` records from: bytes as the receiver sent them, after a header of what the feed
/// found when it opened.
protocol RecordFeed {
    /// `#` lines about what opening found (the baud rate; gpsd's version and devices).
    var headerLines: [String] { get }
    /// Bytes that arrived while opening: they are data too.
    var leadingBytes: [UInt8] { get }
    var rate: BaudRate? { get }
    /// Waits at most `timeout` seconds and hands what arrived to `write`; false once the receiver
    /// hung up.
    mutating func read(timeout: Double, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// Hands over what already arrived, without waiting (at the end of a recording).
    mutating func drain(_ write: (UnsafeRawBufferPointer) throws -> Void) throws
    func close()
}

/// A serial port, its rate found as `ReceiverPort` finds it; each rate autobaud tries is said.
struct PortRecordFeed: RecordFeed {
    let receiver: ReceiverPort
    let headerLines: [String]
    var leadingBytes: [UInt8] { receiver.leadingBytes }
    let rate: BaudRate?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)

    static func open(
        _ path: String, rate: BaudRate?, autobaud: Autobaud, memory: BaudMemory?, shouldStop: () -> Bool,
        log: (String) -> Void
    ) throws -> PortRecordFeed {
        let receiver: ReceiverPort
        switch try ReceiverPort.open(
            path, rate: rate, autobaud: autobaud, memory: memory, shouldStop: shouldStop,
            trying: { log("\(path): listening at \($0) baud (up to \(HumanText.duration(autobaud.window)))") })
        {
        case .opened(let opened): receiver = opened
        case .stopped:
            throw OpeningStep.findingBaudRate(path: path)
        case .noNMEA(let attempts):
            let tried = attempts.map { "\($0.rate) (\($0.bytes) bytes, \($0.checksummedSentences) sentences)" }
            throw RuntimeFailure.receiver(.noNMEAAtAnyRate(path: path, tried: tried))
        }
        let note: String
        switch receiver.rateSource {
        case .pinned: note = "\(receiver.port.rate.map(\.description) ?? "?") (pinned)"
        case .none: note = "none (CDC-ACM: the USB link has no baud rate)"
        case .autobaud:
            note = "\(receiver.rate.map(\.description) ?? "?") (autobaud)"
            log("\(path): \(receiver.rate.map(\.description) ?? "?") baud")
        }
        return PortRecordFeed(
            receiver: receiver, headerLines: ["# baud: \(note)"],
            rate: receiver.rateSource == .none ? nil : receiver.port.rate)
    }

    func read(timeout: Double, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        switch try receiver.port.read(into: buffer, timeout: timeout) {
        case .timeout: return true
        case .hangUp: return false
        case .data(let count):
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            return true
        }
    }

    func drain(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        while case .data(let count) = try receiver.port.readAvailable(into: buffer) {
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    func close() {
        receiver.close()
        buffer.deallocate()
    }
}

/// A capture taken through gpsd without stopping it (docs/hardware.md): gpsd is asked for the
/// sentences as it received them (`"nmea":true`), each written with its CR LF, so that `decode`
/// and `replay` read the file like one recorded from the port. gpsd passes on only sentences whose
/// checksum it accepted; its own JSON reports are read for the header, not written.
struct GpsdRecordFeed: RecordFeed {
    let connection: GpsdConnection
    let address: GpsdAddress
    let headerLines: [String]
    let leadingBytes: [UInt8]
    var rate: BaudRate? { nil }
    let log: (String) -> Void

    /// Seconds to wait for gpsd to answer the watch (its VERSION and DEVICES come first).
    static let answerWait = 5.0

    static func open(_ address: GpsdAddress, shouldStop: () -> Bool, log: @escaping (String) -> Void) throws
        -> GpsdRecordFeed
    {
        let connection: GpsdConnection
        do {
            connection = try GpsdConnection.connect(address)
            try connection.watch(GpsdConnection.Watch(json: false, nmea: true))
        } catch {
            throw RuntimeFailure.receiver(.gpsdUnreachable(endpoint: address.endpoint, cause: error))
        }
        var release: String?
        var devices: [String] = []
        var answered = false
        var leading: [UInt8] = []
        let deadline = monotonicSeconds() + answerWait
        do {
            while !answered, monotonicSeconds() < deadline {
                if shouldStop() {
                    connection.close()
                    throw OpeningStep.waitingForGpsd
                }
                let outcome = try connection.readLines(timeout: 0.1) { line in
                    if Self.isSentence(line) {
                        leading += Array(line) + [0x0D, 0x0A]
                        answered = true
                    } else if let report = GpsdReport(line) {
                        switch report.reportClass {
                        case .version: release = report.string("release")
                        case .devices:
                            devices = report.devices().map { $0.path + ($0.driver.map { " (\($0))" } ?? "") }
                        case .watch: answered = true
                        case .error: log("gpsd says: \(report.string("message") ?? "an error")")
                        default: break
                        }
                    }
                }
                if outcome == .closed { break }
            }
        } catch let error as SocketError {
            connection.close()
            throw RuntimeFailure.receiver(
                .gpsdReadFailed(endpoint: address.endpoint, cause: error, captureComplete: false))
        }
        let line =
            "# gpsd: " + (release ?? "?") + (devices.isEmpty ? "" : ", devices: " + devices.joined(separator: ", "))
        return GpsdRecordFeed(
            connection: connection, address: address, headerLines: [line], leadingBytes: leading, log: log)
    }

    static func isSentence(_ line: UnsafeRawBufferPointer) -> Bool {
        line.first == UInt8(ascii: "$") || line.first == UInt8(ascii: "!")
    }

    func read(timeout: Double, _ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        var failure: Error?
        let outcome: GpsdConnection.ReadOutcome
        do {
            outcome = try connection.readLines(timeout: timeout) { line in
                guard failure == nil else { return }
                do {
                    if Self.isSentence(line) {
                        try write(line)
                        try [UInt8(0x0D), 0x0A].withUnsafeBytes { try write($0) }
                    } else if let report = GpsdReport(line), report.reportClass == .error {
                        log("gpsd says: \(report.string("message") ?? "an error")")
                    }
                } catch {
                    failure = error
                }
            }
        } catch {
            throw RuntimeFailure.receiver(
                .gpsdReadFailed(endpoint: address.endpoint, cause: error, captureComplete: true))
        }
        if let failure { throw failure }
        return outcome != .closed
    }

    func drain(_ write: (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = try read(timeout: 0, write)
    }

    func close() { connection.close() }
}
