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
        try push(bytes, onSentence: { _, _ in }, onFix: onFix)
    }

    /// Feeds bytes; calls `onSentence` for every good sentence (before fix assembly sees it) and
    /// `onFix` for every completed fix. Both run synchronously, inside this call.
    public func push(
        _ bytes: UnsafeRawBufferPointer,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        guard skipsCommentLines else {
            return try decode(bytes, onSentence: onSentence, onFix: onFix)
        }
        // Pass on the spans between comment lines; a comment runs from a `#` at the start of a
        // line to the line end.
        var spanStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            let isLineEnd = byte == 0x0A || byte == 0x0D
            if inComment {
                if isLineEnd {
                    inComment = false
                    spanStart = index
                }
            } else if atLineStart, byte == 0x23 {
                if spanStart < index {
                    try decode(UnsafeRawBufferPointer(rebasing: bytes[spanStart..<index]), onSentence: onSentence, onFix: onFix)
                }
                inComment = true
            }
            atLineStart = isLineEnd
        }
        if !inComment, spanStart < bytes.count {
            try decode(UnsafeRawBufferPointer(rebasing: bytes[spanStart...]), onSentence: onSentence, onFix: onFix)
        }
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer,
        onSentence: (RawSentence, Sentence) throws -> Void,
        onFix: (Fix) throws -> Void
    ) rethrows {
        try framer.push(bytes) { raw in
            let sentence = Sentence(raw)
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
