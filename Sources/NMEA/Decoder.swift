import Platform

/// The whole NMEA path in one object: bytes in, sentences and fixes out.
///
/// `Framer` -> `Sentence` -> `FixAssembler`, with the counts `decode --stats` prints. Allocates only
/// when created.
public final class Decoder {
    public let framer = Framer()
    /// What a push changes besides the framer, behind a pointer of its own, which a push changes
    /// in place. As three stored properties, copied into locals and back, each push cost two copies
    /// of the assembler and six dynamic exclusivity checks; as one, one check, and even one reads
    /// the runtime's thread-local state, cold when the reader has just woken: 2% of a live
    /// reader's CPU (docs/performance.md, "Live cost"). Read the counts and the assembler between
    /// pushes, not from inside a push's handlers.
    private let progress: UnsafeMutablePointer<Progress>
    public var assembler: FixAssembler {
        get { progress.pointee.assembler }
        set { progress.pointee.assembler = newValue }
    }
    public var counts: SentenceCounts { progress.pointee.counts }
    /// The sky of the cycles, gathered when `tracksSky` is set, behind a pointer of its own: a
    /// push's handlers take it (`takeSky`) for the fix or cycle they were given, while the push
    /// still holds `progress`.
    private let sky: UnsafeMutablePointer<SkyTracker>
    /// Whether GSV, GSA, GST and GBS are gathered into each cycle's `EpochSky` (the sources that
    /// feed the integrity monitor); off, they are framed and counted only.
    public var tracksSky = false
    public var fixes: UInt64 { progress.pointee.fixes }
    /// Capture files (docs/hardware.md) carry `#` comment lines; a live port does not.
    public let skipsCommentLines: Bool
    private var atLineStart = true
    private var inComment = false

    public init(
        rollover: WeekRollover = .captures, accuracyModel: AccuracyModel = AccuracyModel(),
        skipsCommentLines: Bool = false
    ) {
        progress = .allocate(capacity: 1)
        progress.initialize(to: Progress(assembler: FixAssembler(rollover: rollover, accuracyModel: accuracyModel)))
        sky = .allocate(capacity: 1)
        sky.initialize(to: SkyTracker())
        self.skipsCommentLines = skipsCommentLines
    }

    deinit {
        progress.deinitialize(count: 1)
        progress.deallocate()
        sky.deinitialize(count: 1)
        sky.deallocate()
    }

    /// Feeds bytes; calls `onFix` for every completed fix.
    public func push(_ bytes: UnsafeRawBufferPointer, onFix: (Fix) throws -> Void) rethrows {
        try push(bytes, onFix: onFix, onNoFix: { _ in })
    }

    /// Feeds bytes; calls `onFix` for every completed fix and `onNoFix` for every completed cycle
    /// without one. Sentences that fix assembly does not read are framed, checked and counted,
    /// not decoded: this is the live path.
    public func push(
        _ bytes: UnsafeRawBufferPointer, onFix: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try push(bytes, decodesEverySentence: false, onSentence: { _, _ in }, onFix: onFix, onNoFix: onNoFix)
    }

    /// Feeds bytes; calls `onSentence` for every good sentence (before fix assembly sees it) and
    /// `onFix` for every completed fix. Both run synchronously, inside this call.
    public func push(
        _ bytes: UnsafeRawBufferPointer,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        try push(bytes, onSentence: onSentence, onFix: onFix, onNoFix: { _ in })
    }

    /// Feeds bytes; also calls `onNoFix` for every completed receiver cycle without a usable
    /// position (the event engine's clock while the fix is lost).
    public func push(
        _ bytes: UnsafeRawBufferPointer,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void,
        onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try push(bytes, decodesEverySentence: true, onSentence: onSentence, onFix: onFix, onNoFix: onNoFix)
    }

    private func push(
        _ bytes: UnsafeRawBufferPointer,
        decodesEverySentence: Bool,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void,
        onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        guard skipsCommentLines else {
            return try decode(bytes, decodesEverySentence, onSentence, onFix, onNoFix)
        }
        // Pass on the spans between comment lines; a comment runs from a `#` at the start of a
        // line to the line end. memchr jumps from `#` to `#`, so text without comments costs one
        // vectorised scan.
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var index = 0
        var spanStart = 0
        while index < count {
            if inComment {
                guard let end = Self.firstLineEnd(base, from: index, to: count) else {
                    index = count
                    break
                }
                inComment = false
                spanStart = end
                index = end
                continue
            }
            guard let hash = memchr(base + index, 0x23, count - index) else { break }
            let position = base.distance(to: hash.assumingMemoryBound(to: UInt8.self))
            let atStartOfLine = position == 0 ? atLineStart : Self.isLineEnd(base[position - 1])
            if atStartOfLine {
                if spanStart < position {
                    try decode(
                        UnsafeRawBufferPointer(start: base + spanStart, count: position - spanStart),
                        decodesEverySentence, onSentence, onFix, onNoFix)
                }
                inComment = true
            }
            index = position + 1
        }
        if count > 0 { atLineStart = Self.isLineEnd(base[count - 1]) }
        if !inComment, spanStart < count {
            try decode(
                UnsafeRawBufferPointer(start: base + spanStart, count: count - spanStart), decodesEverySentence,
                onSentence, onFix, onNoFix)
        }
    }

    @inline(__always)
    static func isLineEnd(_ byte: UInt8) -> Bool { byte == 0x0A || byte == 0x0D }

    static func firstLineEnd(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var index = start
        while index < end {
            if isLineEnd(base[index]) { return index }
            index += 1
        }
        return nil
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer,
        _ decodesEverySentence: Bool,
        _ onSentence: (RawSentence, Sentence) throws -> Void,
        _ onFix: (Fix) throws -> Void,
        _ onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try Self.decode(
            bytes, framer, &progress.pointee, tracksSky ? sky : nil, decodesEverySentence, onSentence, onFix, onNoFix)
    }

    /// The sky of the cycle at `timeOfDay` whose fix (or lack of one) a handler was just given;
    /// call it from that handler. Empty unless `tracksSky` is set.
    public func takeSky(at timeOfDay: TimeOfDay) -> EpochSky { sky.pointee.take(at: timeOfDay) }

    struct Progress {
        var assembler: FixAssembler
        var counts = SentenceCounts()
        var fixes: UInt64 = 0
        var flagsAge = ReceiverFlagsAge()
    }

    /// `FramerCounters.integrityMessages` at the last cycle, and cycles since it last grew.
    struct ReceiverFlagsAge {
        var messagesSeen: UInt64 = 0
        var cyclesSince = 0
    }

    /// Receiver cycles, with a fix or without, for which the receiver's last jamming and spoofing
    /// report stands: one that stops sending them (reconfigured, or its UBX output turned off) is
    /// not taken at its old word.
    public static let receiverFlagsLastFor = 10

    /// What the receiver last said of jamming and spoofing, while that is fresh, for the cycle
    /// that just ended; nil when it said nothing or too long ago.
    @inline(__always)
    private static func freshReceiverFlags(_ framer: Framer, _ age: inout ReceiverFlagsAge)
        -> ReceiverIntegrityFlags?
    {
        let seen = framer.counters.integrityMessages
        guard seen > 0 else { return nil }
        if seen != age.messagesSeen {
            age.messagesSeen = seen
            age.cyclesSince = 0
        } else {
            age.cyclesSince += 1
        }
        guard age.cyclesSince < receiverFlagsLastFor else { return nil }
        return framer.receiverFlags
    }

    /// The fix with the receiver's fresh flags.
    @inline(__always)
    private static func withReceiverFlags(_ fix: Fix, _ framer: Framer, _ age: inout ReceiverFlagsAge) -> Fix {
        guard let flags = freshReceiverFlags(framer, &age) else { return fix }
        var fix = fix
        fix.receiverFlags = flags
        return fix
    }

    /// The cycle without a fix with the receiver's fresh flags.
    @inline(__always)
    private static func withReceiverFlags(
        _ cycle: EpochTime, _ framer: Framer, _ age: inout ReceiverFlagsAge
    ) -> EpochTime {
        guard let flags = freshReceiverFlags(framer, &age) else { return cycle }
        var cycle = cycle
        cycle.receiverFlags = flags
        return cycle
    }

    private static func decode(
        _ bytes: UnsafeRawBufferPointer,
        _ framer: Framer,
        _ progress: inout Progress,
        _ sky: UnsafeMutablePointer<SkyTracker>?,
        _ decodesEverySentence: Bool,
        _ onSentence: (RawSentence, Sentence) throws -> Void,
        _ onFix: (Fix) throws -> Void,
        _ onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try framer.push(bytes) { raw in
            progress.counts.add(raw.address.type)
            // A sentence whose time field is garbage is dropped by fix assembly; it counts as
            // malformed (it still counts as a sentence: framing and checksum were good).
            let invalidTimes = progress.assembler.invalidTimes
            defer { if progress.assembler.invalidTimes != invalidTimes { framer.countMalformed() } }
            if decodesEverySentence { try onSentence(raw, Sentence(raw)) }
            sky?.pointee.add(raw)
            try progress.assembler.add(
                raw: raw,
                onFix: { fix in
                    progress.fixes += 1
                    try onFix(withReceiverFlags(fix, framer, &progress.flagsAge))
                }, onNoFix: { cycle in try onNoFix(withReceiverFlags(cycle, framer, &progress.flagsAge)) })
        }
    }

    /// Whether the epoch in progress waits for its time change, or for the line to go quiet, to be
    /// emitted (`FixAssembler.epochAwaitsClose`). Read between pushes.
    public var epochAwaitsClose: Bool { progress.pointee.assembler.epochAwaitsClose }

    /// The line went quiet after a burst (a live reader's word): emits the epoch in progress
    /// (`FixAssembler.lineWentQuiet`). A partial sentence stays in the framer.
    public func lineWentQuiet(onFix: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void) rethrows {
        try Self.lineWentQuiet(&progress.pointee, framer, onFix: onFix, onNoFix: onNoFix)
    }

    private static func lineWentQuiet(
        _ progress: inout Progress, _ framer: Framer, onFix: (Fix) throws -> Void,
        onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try progress.assembler.lineWentQuiet(
            onFix: { fix in
                progress.fixes += 1
                try onFix(withReceiverFlags(fix, framer, &progress.flagsAge))
            }, onNoFix: { cycle in try onNoFix(withReceiverFlags(cycle, framer, &progress.flagsAge)) })
    }

    /// Ends the input: a partial last sentence is counted as cut short, and the epoch in progress is
    /// emitted.
    public func finish(onFix: (Fix) throws -> Void) rethrows {
        try finish(onFix: onFix, onNoFix: { _ in })
    }

    public func finish(onFix: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void) rethrows {
        framer.finish()
        try Self.finish(&progress.pointee, framer, onFix: onFix, onNoFix: onNoFix)
    }

    private static func finish(
        _ progress: inout Progress, _ framer: Framer, onFix: (Fix) throws -> Void,
        onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        try progress.assembler.finish(
            onFix: { fix in
                progress.fixes += 1
                try onFix(withReceiverFlags(fix, framer, &progress.flagsAge))
            }, onNoFix: { cycle in try onNoFix(withReceiverFlags(cycle, framer, &progress.flagsAge)) })
    }
}
