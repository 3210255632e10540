import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Receivers
import Synchronization
import Testing
import Tools

/// A simulated receiver on a real pseudo-terminal, played on its own thread.
final class SimulatorThread: @unchecked Sendable {
    let terminal: PseudoTerminal
    let wire: SimulatedWire
    private let stopped = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    /// `waitForReader`: stay silent until a reader has opened the port and set the simulator's
    /// rate (the line starts at another rate so that this is seen), then a little longer, past the
    /// reader's `tcflush`: the test then knows that every epoch sent is heard.
    init(job: SimulateJob, rate: Int, waitForReader: Bool = false) throws {
        let lineRate = BaudRate(rate)!
        terminal = try PseudoTerminal.open(rate: waitForReader ? BaudRate(rate == 1200 ? 2400 : 1200)! : lineRate)
        wire = SimulatedWire(port: .pseudoTerminal(terminal), rate: lineRate)
        let thread = Thread { [self] in
            if waitForReader {
                while !(terminal.hasReader && terminal.lineRate() == lineRate), !stopped.load(ordering: .relaxed) {
                    usleep(1000)
                }
                usleep(50_000)
            }
            try? job.run(wire: wire, now: currentUTCTime, shouldStop: { self.stopped.load(ordering: .relaxed) })
            finished.store(true, ordering: .relaxed)
        }
        thread.start()  // not kept: the thread holds us until it finishes, never the other way round
    }

    var path: String { terminal.slavePath }
    var isFinished: Bool { finished.load(ordering: .relaxed) }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        while !isFinished { usleep(1000) }
        terminal.close()
    }
}

/// A route with a corner: about 99 m east, then 78 m north.
func straightRoute() -> [RoutePoint] {
    [
        RoutePoint(latitude: 42.2806, longitude: -83.7519), RoutePoint(latitude: 42.2806, longitude: -83.7507),
        RoutePoint(latitude: 42.2813, longitude: -83.7507),
    ]
}

let fixedStart = UTCTime(date: CivilDate(year: 2026, month: 2, day: 3), timeOfDay: TimeOfDay(milliseconds: 36_902_000))

func job(rate: Double, speed: Double, points: [RoutePoint] = straightRoute()) -> SimulateJob {
    var job = SimulateJob(route: .track(points))
    job.rate = rate
    job.speed = speed
    job.start = fixedStart
    return job
}

/// Decodes bytes as the runtime will, collecting fixes.
final class FixCollector {
    let decoder = Decoder()
    var fixes: [Fix] = []

    func push(_ bytes: UnsafeRawBufferPointer) {
        decoder.push(bytes) { fixes.append($0) }
    }

    func push(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { push($0) }
    }
}

/// Whether a decoded fix is the simulated one (positions to 1e-6 degree, 11 cm; the wire carries
/// 1e-5 minute).
func matches(_ fix: Fix, _ expected: SimulatedFix) -> Bool {
    fix.time == expected.time && abs(fix.latitude - expected.latitude) < 1e-6
        && abs(fix.longitude - expected.longitude) < 1e-6 && abs((fix.speed ?? -1) - expected.speed) < 0.001
        && abs((fix.track ?? -1) - expected.track) < 0.006
}

/// A fresh directory under the system temporary directory.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "gpsfence-serial-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Reads from `port` for `seconds`, returning every byte.
func readFor(_ port: SerialPort, seconds: Double) throws -> [UInt8] {
    var bytes: [UInt8] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { buffer.deallocate() }
    let deadline = monotonicSeconds() + seconds
    while monotonicSeconds() < deadline {
        if case .data(let count) = try port.read(into: buffer, timeout: 0.05) {
            bytes += UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        }
    }
    return bytes
}

/// Every test that times bytes on a pseudo-terminal runs inside this suite, one at a time, so
/// that autobaud windows and pacing are not squeezed by each other on a 2-core CI machine.
@Suite(.serialized) struct PseudoTerminalTests {}
