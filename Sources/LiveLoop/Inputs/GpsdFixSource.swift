import Events
import Fences
import NMEA
import Platform
import Receivers
import Synchronization

/// A running gpsd as an engine input (docs/hardware.md): gpsfence as one more gpsd client, for machines
/// where gpsd owns the receiver. TPV reports become fixes through the same ring and engine as a
/// serial receiver's, each with its cycle's sky out of the SKY and GST reports (`GpsdSkyTracker`) for
/// the integrity monitor; the connection's life becomes device events:
///
/// - `connected` once the watched device is open in gpsd (DEVICES or DEVICE with an `activated`
///   time) or its TPVs flow, whichever comes first;
/// - `lost` when gpsd closes the device (DEVICE `activated` 0) or the connection drops;
/// - one `problem` per outage (refused, dropped, unreachable), naming host and port, then
///   reconnects with a backoff of 1 s doubling to 30 s, until `stop()`.
///
/// Lines that are not JSON, JSON of the wrong shape, and lines over the buffer's bound are
/// skipped and counted (`skippedReports`), and said once per connection.
public final class GpsdFixSource: FixSource {
    public struct Configuration: Sendable {
        public var address: GpsdAddress
        public var initialBackoff = 1.0
        public var maximumBackoff = 30.0
        public var connectTimeout = 5.0
        /// The longest line kept; gpsd's longest reports (SKY with every satellite) are a few KB.
        public var maximumLine = 65536

        public init(address: GpsdAddress) { self.address = address }
    }

    public let configuration: Configuration
    private let stopped = Atomic<Bool>(false)
    private let skipped = Atomic<Int>(0)

    public var waitsForRoom: Bool { false }
    public var isLive: Bool { true }
    /// gpsd hands over each report as it comes: nothing to sleep through.
    public var readCues: ReadSchedule.Cues? { nil }

    public init(_ configuration: Configuration) { self.configuration = configuration }

    public func stop() { stopped.store(true, ordering: .relaxed) }
    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    /// Reports skipped so far: not JSON, not an object with a class, or longer than the bound.
    public var skippedReports: Int { skipped.load(ordering: .relaxed) }

    public func run(_ emit: (EngineInput) -> Void) {
        let address = configuration.address
        var backoff = Backoff(initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
        // One `error` per outage: the retries that follow stay quiet until the source is
        // connected again.
        var outage = OutageLog<SocketError>()
        while !isStopped {
            var session = Session(watched: address.device.map { Array($0.utf8) })
            do throws(SocketError) {
                let connection = try GpsdConnection.connect(
                    address, timeout: configuration.connectTimeout, maximumLine: configuration.maximumLine)
                defer { connection.close() }
                try connection.watch(GpsdConnection.Watch())
                try read(
                    connection, &session,
                    emit: { input in
                        if case .connected = input {
                            _ = outage.recovered()
                            backoff.reset()
                        }
                        emit(input)
                    })
                emitFix(session.epochs.flush(), &session, emit)
            } catch {
                emitFix(session.epochs.flush(), &session, emit)
                if session.connected {
                    emit(.lost(device: address.description, reason: error.description))
                }
                if outage.failed(error) {
                    emit(
                        .problem(
                            .gpsdUnreachable(
                                endpoint: address.endpoint, error: CaughtError(error),
                                initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)))
                }
            }
            if isStopped { break }
            wait(backoff.next())
        }
    }

    /// What one connection has seen.
    private struct Session {
        /// The device named in the address, as bytes to compare paths with; nil: any device.
        var watched: [UInt8]?
        var connected = false
        var release: String?
        /// Without a named device: the device whose reports arrive, to know whose DEVICE
        /// deactivation is a loss.
        var current: [UInt8]?
        var saidSkipped = false
        /// One fix per receiver epoch out of gpsd's TPVs (several may describe one epoch).
        var epochs = TPVEpochs()
        /// The last SKY report's satellites used: TPV does not say, and gpsd sends SKY about once
        /// per epoch, before or after its TPV.
        var satellitesUsed: Int?
        /// The last SKY report's HDOP, on the same terms.
        var hdop: Double?
        /// The sky of the SKY and GST reports, taken with each fix or cycle without one.
        var sky = GpsdSkyTracker()
    }

    /// Emits `fix`, if any, with its cycle's sky.
    private func emitFix(_ fix: Fix?, _ session: inout Session, _ emit: (EngineInput) -> Void) {
        guard let fix else { return }
        emit(.fix(fix, sky: session.sky.take(at: fix.time)))
    }

    /// Reads one connection until `stop()` (returns) or the connection ends (throws).
    private func read(_ connection: GpsdConnection, _ session: inout Session, emit: (EngineInput) -> Void)
        throws(SocketError)
    {
        let name = configuration.address.description
        let endpoint = configuration.address.endpoint
        while !isStopped {
            let oversizedBefore = connection.lines.oversizedLines
            let outcome = try connection.readLines(timeout: 0.1) { line in
                guard let report = GpsdReport(line) else {
                    if !line.isEmpty { skip(&session, emit, .notAJSONReport) }
                    return
                }
                switch report.reportClass {
                case .tpv:
                    if session.watched == nil, let device = report.device,
                        !(session.current.map { device.elementsEqual($0) } ?? false)
                    {
                        session.current = Array(device)
                    }
                    if !session.connected { connect(&session, emit, via: "TPV") }
                    let tpv = report.tpv
                    if var fix = tpv.fix {
                        fix.satellitesUsed = fix.satellitesUsed ?? session.satellitesUsed
                        fix.hdop = fix.hdop ?? session.hdop
                        emitFix(session.epochs.add(fix, at: monotonicSeconds()), &session, emit)
                    } else if let time = tpv.time {
                        let (finished, isNewEpoch) = session.epochs.addWithoutFix(time: time)
                        emitFix(finished, &session, emit)
                        if isNewEpoch {
                            emit(
                                .silentCycle(
                                    EpochTime(time: time, timeOfDay: GpsdTPV.timeOfDay(time)),
                                    sky: session.sky.take(at: time)))
                        }
                    }
                case .device:
                    guard let path = report.device, isWatched(path, session) else { return }
                    if report.activated {
                        if !session.connected { connect(&session, emit, via: String(decoding: path, as: UTF8.self)) }
                    } else if session.connected {
                        emitFix(session.epochs.flush(), &session, emit)
                        session.connected = false
                        emit(.lost(device: name, reason: "gpsd closed \(String(decoding: path, as: UTF8.self))"))
                    }
                case .devices:
                    let devices = report.devices()
                    let open = devices.first { device in
                        device.activated && (session.watched.map { Array(device.path.utf8) == $0 } ?? true)
                    }
                    if let open, !session.connected {
                        connect(&session, emit, via: open.path + (open.driver.map { " (\($0))" } ?? ""))
                    }
                    if let watched = session.watched, !devices.contains(where: { Array($0.path.utf8) == watched }) {
                        // gpsd keeps the watch and reports the device if it is added later
                        // (gpsdctl add, hotplug): say so, and keep reading.
                        emit(
                            .problem(
                                .gpsdHasNoDevice(
                                    endpoint: endpoint, device: String(decoding: watched, as: UTF8.self),
                                    known: devices.map(\.path))))
                    }
                case .version:
                    session.release = report.string("release")
                case .error:
                    emit(.problem(.gpsdSays(endpoint: endpoint, said: report.string("message"))))
                case .sky:
                    if let used = report.satellitesUsed { session.satellitesUsed = used }
                    if report.hdop != nil || report.satellitesUsed == 0 { session.hdop = report.hdop }
                    session.sky.add(report)
                case .other:
                    session.sky.add(report)
                case .watch:
                    break
                }
            }
            emitFix(session.epochs.flushIfQuiet(at: monotonicSeconds()), &session, emit)
            if connection.lines.oversizedLines > oversizedBefore {
                skip(&session, emit, .longerThan(bytes: configuration.maximumLine))
            }
            if outcome == .closed {
                throw SocketError(
                    operation: "read", endpoint: endpoint, errno: nil, detail: .closedByPeer(peer: "gpsd"))
            }
        }
    }

    private func connect(_ session: inout Session, _ emit: (EngineInput) -> Void, via: String) {
        session.connected = true
        let version = session.release.map { "gpsd \($0)" } ?? "gpsd"
        emit(.connected(device: configuration.address.description, detail: "(\(version), \(via))"))
    }

    private func isWatched(_ path: UnsafeRawBufferPointer, _ session: Session) -> Bool {
        if let watched = session.watched { return path.elementsEqual(watched) }
        if let current = session.current { return path.elementsEqual(current) }
        return true
    }

    private func skip(_ session: inout Session, _ emit: (EngineInput) -> Void, _ line: GpsdSkippedLine) {
        skipped.add(1, ordering: .relaxed)
        guard !session.saidSkipped else { return }
        session.saidSkipped = true
        emit(.problem(.gpsdSkipped(endpoint: configuration.address.endpoint, line)))
    }

    private func wait(_ seconds: Double) {
        let deadline = monotonicSeconds() + seconds
        while !isStopped {
            let remaining = deadline - monotonicSeconds()
            if remaining <= 0 { return }
            sleepSeconds(min(remaining, 0.1))
        }
    }
}
