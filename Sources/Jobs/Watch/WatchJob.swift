import Delivery
import Events
import Fences
import Foundation
import LiveLoop
import NMEA
import Platform
import Presentation
import Views

/// `gpsfence status --watch` (docs/report.md, "Live view"): the status, redrawn in place every
/// `interval` seconds as `cgps` does, until Ctrl-C. On a terminal it draws on the alternate
/// screen (what was on the terminal is back after quitting) with the cursor hidden; off a
/// terminal each frame is printed after the last, separated by a blank line.
public struct WatchJob {
    public var statePath: String
    public var interval = 1.0
    public var terminal: Bool
    public var color: Bool
    /// The zone and units people read (docs/running.md, "Time and units").
    public var format = HumanFormat()
    /// The shell command that answers the alarm (`AckCommand`).
    public var ackCommand = AckCommand.text(statePath: nil)

    public init(statePath: String, terminal: Bool) {
        self.statePath = statePath
        self.terminal = terminal
        color = terminal
    }

    static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l"
    static let leaveScreen = "\u{1B}[?25h\u{1B}[?1049l"
    static let home = "\u{1B}[H"
    static let clearLine = "\u{1B}[K"
    static let clearBelow = "\u{1B}[J"

    /// Draws until SIGINT/SIGTERM. A state file that cannot be read at the start is bad input
    /// (nothing is drawn); a frame that fails later is shown as a line, and the next one is tried.
    public func run(output: OutputWriter) throws {
        let reader = WatchReader(statePath: statePath, calendar: format.calendar)
        var text = WatchView.text(try frame(reader), interval: interval, color: color, format: format, screen: screen)
        if terminal { output.write(line: Self.enterScreen) }
        defer {
            if terminal { output.write(line: Self.leaveScreen) }
            output.flush()
        }
        while !StopSignals.isRaised {
            if terminal {
                let body = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .joined(separator: Self.clearLine + "\n")
                output.write(line: Self.home + body + Self.clearLine + "\n" + Self.clearBelow)
            } else {
                output.write(line: text + "\n")
            }
            output.flush()
            let deadline = monotonicSeconds() + interval
            while !StopSignals.isRaised && monotonicSeconds() < deadline { napSeconds(0.05) }
            do {
                text = WatchView.text(
                    try frame(reader), interval: interval, color: color, format: format, screen: screen)
            } catch {
                text = "gpsfence status --watch: cannot read \(statePath) now: \(error)"
            }
        }
    }

    /// The terminal's size, for a frame drawn in place (less two rows: the two line feeds after the
    /// frame, before and after clearing below it, would scroll its top away); off a terminal
    /// frames are printed whole.
    private var screen: (rows: Int, columns: Int)? {
        guard terminal, let size = StandardStream.output.terminalSize else { return nil }
        return (max(size.rows - 2, 1), size.columns)
    }

    private func frame(_ reader: WatchReader) throws -> WatchFrame {
        var frame = try reader.frame(
            now: currentUTCTime().millisecondsSinceEpoch, live: LiveChannel.ask(statePath: statePath))
        frame.status.ackCommand = ackCommand
        return frame
    }
}
