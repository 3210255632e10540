/// The whole NMEA path in one object: bytes in, sentences and fixes out.
///
/// `Framer` -> `Sentence` -> `FixAssembler`, with the counts `decode --stats` prints. Allocates only
/// when created.
public final class Decoder {
    public let framer = Framer()
    public var assembler: FixAssembler
    public private(set) var counts = SentenceCounts()
    public private(set) var fixes: UInt64 = 0
    /// Capture files (SPEC §3) carry `#` comment lines; a live port does not.
    public let skipsCommentLines: Bool
    private var atLineStart = true
    private var inComment = false

    public init(
        rollover: WeekRollover = .captures, accuracyModel: AccuracyModel = AccuracyModel(),
        skipsCommentLines: Bool = false
    ) {
        assembler = FixAssembler(rollover: rollover, accuracyModel: accuracyModel)
        self.skipsCommentLines = skipsCommentLines
    }

    /// Feeds bytes; calls `onFix` for every completed fix.
    public func push(_ bytes: UnsafeRawBufferPointer, onFix: (Fix) throws -> Void) rethrows {
        try push(bytes, decodesEverything: false, onSentence: { _, _ in }, onFix: onFix)
    }

    /// Feeds bytes; calls `onSentence` for every good sentence (before fix assembly sees it) and
    /// `onFix` for every completed fix. Both run synchronously, inside this call.
    public func push(
        _ bytes: UnsafeRawBufferPointer,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        try push(bytes, decodesEverything: true, onSentence: onSentence, onFix: onFix)
    }

    /// `decodesEverything: false` when nobody looks at the sentences: GSV and TXT are then not
    /// decoded (see `Sentence.init(_:forFixAssemblyOnly:)`).
    private func push(
        _ bytes: UnsafeRawBufferPointer, decodesEverything: Bool,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        guard skipsCommentLines else {
            return try decode(bytes, decodesEverything, onSentence: onSentence, onFix: onFix)
        }
        // Pass on the spans between comment lines; a comment runs from a `#` at the start of a
        // line to the line end. Jump from `#` to `#` and from a comment to its line end rather than
        // testing every byte for all three: `#` is rare outside comments.
        var spanStart = 0
        var index = 0
        let count = bytes.count
        while index < count {
            if inComment {
                guard let end = bytes[index...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { break }
                inComment = false
                spanStart = end
                index = end + 1
                continue
            }
            guard let hash = bytes[index...].firstIndex(of: 0x23) else { break }
            let startsLine = hash == 0 ? atLineStart : bytes[hash - 1] == 0x0A || bytes[hash - 1] == 0x0D
            if startsLine {
                if spanStart < hash {
                    try decode(UnsafeRawBufferPointer(rebasing: bytes[spanStart..<hash]), decodesEverything, onSentence: onSentence, onFix: onFix)
                }
                inComment = true
            }
            index = hash + 1
        }
        if let last = bytes.last { atLineStart = last == 0x0A || last == 0x0D }
        if !inComment, spanStart < count {
            try decode(UnsafeRawBufferPointer(rebasing: bytes[spanStart...]), decodesEverything, onSentence: onSentence, onFix: onFix)
        }
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer, _ decodesEverything: Bool,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        try framer.push(bytes) { raw in
            let sentence = Sentence(raw, forFixAssemblyOnly: !decodesEverything)
            counts.add(raw.address.type)
            try onSentence(raw, sentence)
            try assembler.add(sentence, address: raw.address) { fix in
                fixes += 1
                try onFix(fix)
            }
        }
    }

    /// Ends the input: a partial last sentence is counted as cut short, and the epoch in progress is
    /// emitted.
    public func finish(onFix: (Fix) throws -> Void) rethrows {
        framer.finish()
        try assembler.finish { fix in
            fixes += 1
            try onFix(fix)
        }
    }
}
