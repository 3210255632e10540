extension ReadSchedule {
    /// When the rest of a receiver's epoch will have arrived, so that the reader sleeps through it
    /// instead of waking for every few bytes a UART hands over (docs/performance.md, "Live cost").
    ///
    /// A receiver sends its epoch as one burst of sentences, back to back at the line rate, then
    /// falls silent until the next: the same sentences each time, so nearly the same number of
    /// bytes. The first bytes of a burst wake the reader; it then sleeps until the burst's last
    /// byte should be on the wire (the shortest of the last few bursts, at the line rate) and reads
    /// the rest at once: two or three wake-ups an epoch instead of one per few bytes (the third
    /// when the driver, which hands bytes over every few milliseconds, holds the last chunk back a
    /// little). A shorter burst is read late by its shortfall at the line rate (a few bytes: a
    /// fraction of a millisecond), the rest of a longer one as it comes. But a fix complete before
    /// the burst ends (satellites in view after the last timed sentence) waits for the rest of it:
    /// this paces the reader only until `CyclePace` knows the cycle's period, and wherever it
    /// cannot learn one.
    ///
    /// Only while bursts come at the pace of the wire: what a program writes to a pseudo-terminal
    /// all at once (or the kernel hands over in two pieces) has its rest there already, and the
    /// next write may come at any moment, so nothing is slept.
    struct BurstPace {
        /// The line rate in bytes per second.
        let bytesPerSecond: Double

        /// The burst in progress: when the read that brought its first bytes returned, how many
        /// those were, how many have come since it began, and when the last of them came.
        private var burstStart = 0.0
        private var firstBytes = 0
        private var bytesInBurst = 0
        private var lastRead = -Double.infinity
        /// Whether the burst in progress began after a silence this reader saw (not at its first
        /// read).
        private var startSeen = false
        /// Whether the last read ended a line (a burst ends with a whole sentence).
        private var endedLine = true
        /// Until when the reader was told to sleep after the last read: that time is not silence.
        private var asleepUntil = -Double.infinity

        /// The lengths of the last whole bursts that came at the wire's pace, newest last; emptied
        /// by one that did not.
        private var recentBursts: [Int] = []
        /// How many bursts are remembered: a receiver that adds a sentence every few epochs
        /// (satellites in view every fifth, say) makes its other epochs no later for it.
        static let remembered = 8

        /// The length the burst in progress is expected to have: the shortest of the recent ones,
        /// so that an epoch without the occasional extra sentence is not read late by it; nil when
        /// none is known.
        var expectedBurst: Int? { recentBursts.min() }

        init(bytesPerSecond: Double) { self.bytesPerSecond = bytesPerSecond }

        /// Bursts longer than this are not an epoch's (a saturated line): nothing is foretold by
        /// them.
        static let longestBurst = 4096
        /// Sleeps shorter than this save nothing.
        static let shortestSleep = 0.001
        /// Sleeps are capped so that `stop()` is seen promptly.
        static let longestSleep = 0.5

        /// Silence longer than this between two reads, after a whole line, ends a burst: several
        /// byte times, and more than the few milliseconds a UART or USB adapter holds bytes back.
        var quiet: Double { max(0.005, 16 / bytesPerSecond) }

        /// Follows the bytes of one read, returned at `time` (seconds on the monotonic clock), and
        /// says how long to sleep before the next read (nil: read as soon as bytes come). The
        /// caller sleeps that long.
        mutating func observe(_ bytes: UnsafeRawBufferPointer, at time: Double) -> Double? {
            guard bytesPerSecond > 0, !bytes.isEmpty else { return nil }
            let silence = time - max(lastRead, asleepUntil)
            if endedLine && silence > quiet {
                endBurst()
                // The first read after opening may come in the middle of a burst: its length says nothing.
                startSeen = lastRead > -Double.infinity
                burstStart = time
                firstBytes = bytes.count
                bytesInBurst = 0
            }
            bytesInBurst += bytes.count
            lastRead = time
            endedLine = bytes[bytes.count - 1] == UInt8(ascii: "\n")
            guard let pause = pause(at: time) else { return nil }
            asleepUntil = time + pause
            return pause
        }

        /// The burst that silence has just ended: remembered when it came at the wire's pace (it
        /// took at least half the time its bytes after the first read need at the line rate).
        private mutating func endBurst() {
            guard bytesInBurst > 0, startSeen else { return }
            let wireTime = Double(bytesInBurst - firstBytes) / bytesPerSecond
            let paced = bytesInBurst > firstBytes && lastRead - burstStart >= wireTime / 2
            guard paced, bytesInBurst <= Self.longestBurst else { return recentBursts.removeAll() }
            if recentBursts.count == Self.remembered { recentBursts.removeFirst() }
            recentBursts.append(bytesInBurst)
        }

        /// Until the last byte of a burst of the expected length should have come, from now.
        private func pause(at time: Double) -> Double? {
            guard let expected = expectedBurst, expected > bytesInBurst else { return nil }
            let end = burstStart + Double(expected - firstBytes) / bytesPerSecond
            let seconds = end - time
            return seconds >= Self.shortestSleep ? min(seconds, Self.longestSleep) : nil
        }
    }
}
