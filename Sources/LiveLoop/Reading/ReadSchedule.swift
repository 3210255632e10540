/// When the reader next reads, and so why it sleeps: everything that decides it, in one value the
/// reader asks after each read and each timeout (docs/performance.md, "Live cost").
///
/// - **The receiver's cycle** (`CyclePace`): once its period is steady, the reader sleeps from the
///   end of one cycle to the foretold end of the next and reads it whole, one wake-up a cycle.
/// - **The quiet cycles the engine foresees** (`Cues.foreseeQuietCycles`): that sleep spans the
///   cycles that cannot raise an event, and the one after, in one wake-up.
/// - **The burst's arrival** (`BurstPace`): until the period is known, on a port with a line rate,
///   the reader sleeps through the rest of a burst of sentences once its first bytes have come.
/// - **The quiet-line close of an epoch**: when the decoder left a cycle open whose end it cannot
///   see, the reader waits at most `quietGap` for more bytes, and silence that long closes it.
///
/// Otherwise the reader waits on the descriptor, at most `idleWake` at a time.
///
/// Threading: a schedule belongs to one session of the reader (one open of the device) and lives
/// on the reader's thread; it is never shared, so it is a plain value. The reader calls
/// `pause(after:readAt:)` after each read's bytes went through its handler, then sleeps what it
/// returns; `wokeToNothing()` when that sleep finds no byte; `longestWait(at:)` before each wait on
/// the descriptor; `timedOut(at:)` when that wait ends without bytes. What others tell it comes
/// through its `Cues`, the one part that is shared (an object of atomics the `Reader` owns for its
/// whole life): the decoder's notes of cycles
/// ended or left open, made in the reader's handler, on the reader's thread; the engine's
/// foresight, set by the reader's turn at the engine (on the reader's thread) and cleared by the
/// engine thread after each of its rounds.
public struct ReadSchedule {
    private let cues: Cues
    /// nil on a port without a line rate (CDC-ACM hands over whole USB packets).
    private var burst: BurstPace?
    private var cycles = CyclePace()
    /// When the line will have been quiet long enough to close the open cycle, if one is open.
    private var quietCloseAt: Double?

    /// How long the line must stay silent after a whole line for the cycle to be over: longer than
    /// the pauses a USB serial adapter or the tty layer makes within a burst (an FTDI adapter holds
    /// bytes up to 16 ms) and than a character at 4800 baud, short against the silence between the
    /// bursts of a 1 Hz receiver. A receiver that pauses longer within its cycle is found out by
    /// the fix assembler (a sentence of a cycle already closed), which then stops closing on quiet.
    public static let quietGap = 0.1

    /// How long a silent port is waited on before `stop()` and the device's path are looked at
    /// again: the only wake-ups of a reader whose receiver says nothing.
    static let idleWake = 0.5

    /// A session's schedule, begun at `time` (monotonic seconds), once the bytes read while the
    /// rate was found (if any) went through the handler: `leadingBytesEndALine` whether they ended
    /// with a whole line.
    init(cues: Cues, bytesPerSecond: Double?, leadingBytesEndALine: Bool, at time: Double) {
        self.cues = cues
        burst = bytesPerSecond.map { BurstPace(bytesPerSecond: $0) }
        quietCloseAt = cues.takeCycleOpen() && leadingBytesEndALine ? time + Self.quietGap : nil
        _ = cues.takeCyclesEnded()
    }

    /// The longest the reader waits on the descriptor for bytes, from `time`.
    func longestWait(at time: Double) -> Double {
        quietCloseAt.map { min(max($0 - time, 0), Self.idleWake) } ?? Self.idleWake
    }

    /// What a wait on the descriptor that ended without bytes at `time` means.
    enum Silence {
        /// The line stayed quiet for `quietGap` after an open cycle: the receiver has sent it.
        case closesCycle
        /// A short wait for the quiet-line close, not yet over: wait again.
        case waitsForClose
        /// The idle wake: the receiver's cycles stopped (the period is let go).
        case idle
    }

    mutating func timedOut(at time: Double) -> Silence {
        guard let due = quietCloseAt else {
            cycles.noteSilence()
            return .idle
        }
        guard time >= due else { return .waitsForClose }
        quietCloseAt = nil
        return .closesCycle
    }

    /// The reader woke from the pause `pause(after:readAt:)` returned and found no byte waiting:
    /// it waits on the descriptor, and the next read comes as its bytes do.
    mutating func wokeToNothing() {
        cycles.noteNothingAtWake()
    }

    /// Follows the bytes of one read, returned at `time` (monotonic seconds, when the bytes came,
    /// not when the handler was done with them), after the handler has taken them and left its
    /// cues. Returns how long to sleep from `time` before the next read (nil: read as soon as
    /// bytes come).
    mutating func pause(after chunk: UnsafeRawBufferPointer, readAt time: Double) -> Double? {
        // A burst ends with a whole line: silence after part of one is a stalled line.
        quietCloseAt =
            cues.takeCycleOpen() && chunk[chunk.count - 1] == UInt8(ascii: "\n") ? time + Self.quietGap : nil
        // One wake-up a cycle once its period is known (one for several cycles the engine foresees
        // quiet), two or three a burst before, instead of one per few bytes.
        let burstPause = burst?.observe(chunk, at: time)
        return cycles.observe(
            cyclesEnded: cues.takeCyclesEnded(), at: time, burstPause: burstPause,
            quietCyclesAhead: cues.quietCyclesAhead)
    }
}
