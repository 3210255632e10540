import NMEA
import Platform
import Receivers

extension SimulateJob {
    /// `gpsfence simulate` end to end: opens the wire (a new pseudo-terminal, optionally behind a
    /// stable symlink, or a real port), says its path first (a test or a user starts a reader on
    /// it), warns when the sentences do not fit the line, and plays until the route ends or
    /// SIGINT/SIGTERM.
    ///
    /// - Parameters:
    ///   - baud: the line rate; nil: the slowest standard rate that carries the rate (`defaultBaud`),
    ///     or 9600 for an emulated receiver (what u-blox and MediaTek parts start at).
    ///   - announce: receives the device path, before anything is played.
    ///   - warn: receives diagnostics (a line too slow, what was dropped).
    public func play(
        device: String?, link: String?, baud: BaudRate?, announce: (String) -> Void, warn: (String) -> Void
    ) throws -> PlayCounts {
        let lineRate = baud ?? (receiver == nil ? defaultBaud(now: currentUTCTime()) : Self.receiverDefaultBaud)
        let port: SimulatedWire.Port
        var linked: (link: String, target: String)?
        if let device {
            port = .device(try SerialPort.open(device, rate: lineRate))
            announce(device)
        } else {
            let terminal = try PseudoTerminal.open(rate: lineRate)
            if let link {
                try replaceSymlink(link, pointingTo: terminal.slavePath)
                linked = (link, terminal.slavePath)
            }
            port = .pseudoTerminal(terminal)
            announce(terminal.slavePath)
        }
        defer { if let linked { removeSymlink(linked.link, pointingTo: linked.target) } }
        let needed = bytesPerSecond(now: currentUTCTime())
        if needed > lineRate.bytesPerSecond {
            warn(
                """
                warning: \(Int(needed)) bytes/s of sentences at --rate \(rate) do not fit \
                \(lineRate) baud (\(Int(lineRate.bytesPerSecond)) bytes/s); the receiver keeps its clock \
                and drops the sentences that do not fit
                """)
        }
        StopSignals.install()
        let counts = try run(
            wire: SimulatedWire(port: port, rate: lineRate), now: currentUTCTime, shouldStop: { StopSignals.isRaised },
            passEnded: { summary in warn(routeEnded(summary)) })
        if counts.dropped > 0 {
            warn("\(counts.dropped) sentences dropped (did not fit \(lineRate) baud), \(counts.sent) sent")
        }
        return counts
    }

    /// The line rate u-blox and MediaTek receivers start at.
    public static let receiverDefaultBaud = BaudRate(9600)!

    /// "route ended" with the receiver times it covered, and what happens next.
    func routeEnded(_ summary: PassSummary) -> String {
        var text = "route ended: \(summary.epochs) epochs"
        if let first = summary.firstFix, let last = summary.lastFix {
            text += ", receiver time \(first) to \(last)"
        }
        if summary.pass > 0 { text += " (pass \(summary.pass + 1))" }
        return text + (loop ? "; --loop plays it again" : "; stopping once the reader has the last bytes")
    }
}
