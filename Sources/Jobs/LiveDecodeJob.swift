import Delivery
import Foundation
import JSONOutput
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers
import Synchronization

/// `gpsfence decode --device PATH|gpsd://...` (docs/formats.md, "decode"): a live receiver's fixes
/// as `decode` prints a capture's, one JSON line each, written and flushed as each fix is made,
/// as `gpspipe -w` streams gpsd's reports. The receiver is read by the same source `run` uses
/// (`SerialFixSource` or `GpsdFixSource`: autobaud, unplug and replug, gpsd reconnects), and its
/// device events go to standard error as lines for people. Runs until SIGINT/SIGTERM, or until
/// `count` fixes.
public struct LiveDecodeJob {
    public var device: DeviceChoice
    public var rate: BaudRate?
    public var autobaud = Autobaud()
    public var rollover = WeekRollover.live(today: currentUTCTime().date)
    /// Stop after this many fixes (nil: until stopped).
    public var count: Int?

    public init(device: DeviceChoice) { self.device = device }

    /// Streams fixes to `output` until stopped; returns how many were printed.
    public func run(output: OutputWriter, log: @escaping @Sendable (String) -> Void) throws -> Int {
        if case .port(let port) = device, let problem = RunJob.notADevice(port.path, readBy: .decode) {
            throw problem
        }
        let source = FixSources.live(device, rate: rate, autobaud: autobaud, rollover: rollover)
        let printed = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        let limit = count
        let thread = Thread {
            runThread(named: "gf-decode") {
                let json = JSONBuffer(capacity: 512)
                source.run { input in
                    switch input {
                    case .fix(let fix, _):
                        guard limit.map({ printed.load(ordering: .relaxed) < $0 }) ?? true else { return }
                        fix.writeJSON(to: json)
                        json.endLine()
                        json.withUnsafeBytes { output.write(bytes: $0) }
                        json.removeAll()
                        output.flush()
                        let done = printed.add(1, ordering: .relaxed).newValue
                        if let limit, done >= limit { source.stop() }
                    case .silentCycle:
                        break
                    case .connected(let device, let detail):
                        log("reading \(device)" + (detail.map { " " + $0 } ?? ""))
                    case .lost(let device, let reason):
                        log("\(device) lost (\(reason)); waiting for it to come back")
                    case .problem(let problem):
                        log(problem.text)
                    case .endOfInput:
                        source.stop()
                    }
                }
            }
            finished.store(true, ordering: .releasing)
        }
        thread.start()
        var stopAsked = false
        while !finished.load(ordering: .acquiring) {
            if !stopAsked && StopSignals.isRaised {
                stopAsked = true
                source.stop()
            }
            napSeconds(0.02)
        }
        output.flush()
        return printed.load(ordering: .relaxed)
    }
}
