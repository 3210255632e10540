import NMEA

/// An NMEA capture cut into the receiver's epochs, to be replayed with its own timing: each epoch
/// is the run of lines that share a time of day (untimed lines go with the epoch before them).
public struct CaptureEpoch: Sendable {
    /// Lines as recorded, each ending in CR LF.
    public var lines: [[UInt8]]
    public var timeOfDay: TimeOfDay?
}

enum CaptureRoute {
    static func parse(_ bytes: [UInt8]) -> [CaptureEpoch] {
        var epochs: [CaptureEpoch] = []
        var current = CaptureEpoch(lines: [], timeOfDay: nil)
        let framer = Framer()
        for line in bytes.split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            if line.first == 0x23 { continue }  // a `#` comment
            var time: TimeOfDay?
            let terminated = Array(line) + [0x0D, 0x0A]
            framer.push(contentsOf: terminated) { raw in time = Sentence(raw).timeOfDay }
            if let time, let currentTime = current.timeOfDay, time != currentTime {
                epochs.append(current)
                current = CaptureEpoch(lines: [], timeOfDay: nil)
            }
            if let time { current.timeOfDay = time }
            current.lines.append(terminated)
        }
        if !current.lines.isEmpty { epochs.append(current) }
        return epochs
    }

    /// Seconds from one epoch to the next: the capture's own time step when it is plausible
    /// (more than 0, at most 10 s, across midnight too), else `fallback`.
    static func interval(from a: TimeOfDay?, to b: TimeOfDay?, fallback: Double) -> Double {
        guard let a, let b else { return fallback }
        var step = b.milliseconds - a.milliseconds
        if step < 0 { step += TimeOfDay.millisecondsPerDay }
        guard step > 0, step <= 10_000 else { return fallback }
        return Double(step) / 1000
    }
}
