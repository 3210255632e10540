import Events
import NMEA

/// What a source says about the receiver's dates, once each (docs/nmea.md, "GPS week rollover"):
/// a date moved forward for a week rollover, and, for a live receiver that sends no date at all
/// (GGA only), the system date it borrows, as gpsd does.
struct ReceiverClock {
    /// Live receivers only: fixes without a date take the system date.
    var borrowsSystemDate: Bool
    var now: () -> UTCTime = currentUTCTime
    private var saidRollover = false
    private var saidSystemDate = false

    init(borrowsSystemDate: Bool, now: @escaping () -> UTCTime = currentUTCTime) {
        self.borrowsSystemDate = borrowsSystemDate
        self.now = now
    }

    /// The message to report for the decoder's first rollover correction (its assembler's
    /// `firstRollover`: one field read, not the assembler copied), once.
    mutating func rolloverNotice(_ firstRollover: RolloverCorrection?, device: String) -> SourceProblem? {
        guard !saidRollover, let correction = firstRollover else { return nil }
        saidRollover = true
        return .weekRollover(device: device, correction: correction)
    }

    /// Undated fixes in a row before the system date is borrowed: a run that starts reading
    /// between a receiver's RMC and its GGA sees one undated epoch from a receiver that does send
    /// dates, and must not say otherwise.
    static let undatedEpochsBeforeBorrowing = 3
    private var undatedInARow = 0

    /// The fix with the system date when the receiver gave none for a few epochs, and the message
    /// to report the first time that happens.
    mutating func dated(_ fix: Fix, device: String) -> (Fix, notice: SourceProblem?) {
        guard borrowsSystemDate, fix.time == nil else {
            undatedInARow = 0
            return (fix, nil)
        }
        undatedInARow += 1
        guard undatedInARow >= Self.undatedEpochsBeforeBorrowing || saidSystemDate else { return (fix, nil) }
        var dated = fix
        dated.time = Self.nearest(fix.timeOfDay, to: now())
        guard !saidSystemDate else { return (dated, nil) }
        saidSystemDate = true
        return (dated, .noDate(device: device))
    }

    /// The time with this time of day nearest to `now`: yesterday's, today's or tomorrow's, so
    /// that a fix just before midnight is not dated a day late by a clock just past it.
    static func nearest(_ timeOfDay: TimeOfDay, to now: UTCTime) -> UTCTime {
        let today = now.date
        let candidates = (-1...1).map {
            UTCTime(date: CivilDate(daysSinceEpoch: today.daysSinceEpoch + $0), timeOfDay: timeOfDay)
        }
        return candidates.min {
            abs($0.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
                < abs($1.millisecondsSinceEpoch - now.millisecondsSinceEpoch)
        }!
    }
}

/// The recording day of a capture that `record` wrote, from its `# start:` header line: the
/// plausible epoch for its dates, so that a receiver's rollover in a recording is corrected on
/// replay as it would have been live. Nil for captures without that header (gpsd's logs, old
/// recordings), which keep the captures' rule.
enum CaptureHeader {
    static func recordingDate(in chunk: UnsafeRawBufferPointer) -> CivilDate? {
        let marker = Array("# start: ".utf8)
        var lineStart = 0
        while lineStart < chunk.count, chunk[lineStart] == UInt8(ascii: "#") {
            var lineEnd = lineStart
            while lineEnd < chunk.count, chunk[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = Array(chunk[lineStart..<lineEnd])
            if line.starts(with: marker), line.count >= marker.count + 10 {
                let day = String(decoding: line[marker.count..<(marker.count + 10)], as: UTF8.self)
                if let date = CivilDate(iso: day), date.isValid { return date }
            }
            lineStart = lineEnd + 1
        }
        return nil
    }
}
