/// Turns an arbitrary byte stream into NMEA 0183 sentences.
///
/// Bytes arrive as `read()` returns them: one at a time, a few, or kilobytes with a sentence cut at
/// either end. The framer keeps at most one partial sentence between calls and resynchronises on
/// anything that is not NMEA: junk and binary noise between sentences, a sentence cut short by the
/// next `$`, NUL bytes and ANSI escapes inside a sentence, over-long lines. Binary u-blox (UBX)
/// frames between sentences are skipped whole, checksum checked, and counted as frames, not junk;
/// those in which the receiver reports jamming and spoofing (`UBXIntegrityMessage`) are read into
/// `receiverFlags` on the way. See docs/nmea.md.
///
/// It allocates once, at creation; `push` never allocates.
public final class Framer {
    /// Longest sentence accepted, from `$` to the last checksum digit. The standard says 82;
    /// some receivers exceed it (docs/nmea.md).
    public static let maximumLength = 120

    public private(set) var counters = FramerCounters()
    /// What the receiver last said of jamming and spoofing in its own UBX messages; `.unknown`
    /// until it says anything. `counters.integrityMessages` counts the messages read.
    public private(set) var receiverFlags = ReceiverIntegrityFlags.unknown

    private let buffer: UnsafeMutablePointer<UInt8>
    private var length = 0
    /// XOR of the bytes collected after the start character so far.
    private var checksum: UInt8 = 0
    private var state = State.hunting
    /// The UBX frame being skipped: bytes of it seen so far (sync characters included), its
    /// payload length once known, and its Fletcher checksum so far.
    private var binaryPosition = 0
    private var binaryLength = 0
    private var binaryChecksumA: UInt8 = 0
    private var binaryChecksumB: UInt8 = 0
    private var binaryFirstChecksumMatched = false
    private var binaryClass: UInt8 = 0
    /// The integrity message whose payload is being kept in `capture`, if the frame is one.
    private var captured: UBXIntegrityMessage?
    private let capture: UnsafeMutablePointer<UInt8>

    /// Largest UBX payload skipped as a frame. The longest u-blox messages (RXM-RAWX with every
    /// channel of a high-precision receiver) stay well under it; a larger length field is noise
    /// that happened to start with the sync characters, and reading on would swallow sentences.
    public static let maximumBinaryPayload = 8192

    private enum State {
        /// Between sentences: every byte that is not a start character is junk.
        case hunting
        /// Inside a sentence that is still short enough to keep.
        case collecting
        /// Inside a line that already broke the length limit; skip to its end.
        case discarding
        /// Inside a UBX frame (0xB5 0x62, class, id, length, payload, checksum); skip to its end.
        case binary
    }

    public init() {
        buffer = .allocate(capacity: Self.maximumLength)
        capture = .allocate(capacity: UBXIntegrityMessage.maximumPayload)
    }

    deinit {
        buffer.deallocate()
        capture.deallocate()
    }

    /// Feeds bytes; calls `body` once for every complete sentence whose checksum is good or absent.
    ///
    /// The sentence passed to `body` points into the framer's own storage and is valid only during
    /// the call.
    public func push(_ bytes: UnsafeRawBufferPointer, _ body: (RawSentence) throws -> Void) rethrows {
        guard let input = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            switch state {
            case .hunting:
                // Skip to the next start character; everything but line ends on the way is junk.
                var junk: UInt64 = 0
                while index < count {
                    let byte = input[index]
                    if byte == ASCII.dollar || byte == ASCII.bang || byte == UBXSync.first { break }
                    if byte != ASCII.cr && byte != ASCII.lf { junk += 1 }
                    index += 1
                }
                counters.junkBytes += junk
                if index < count {
                    let byte = input[index]
                    index += 1
                    if byte == UBXSync.first {
                        startBinary()
                    } else {
                        start(with: byte)
                    }
                }
            case .binary:
                index = skipBinary(input, from: index, count: count)
            case .collecting:
                // Copy the run of sentence characters up to the byte that ends or breaks the
                // sentence, folding each into the checksum on the way (one pass over each byte).
                var filled = length
                var sum = checksum
                // Eight bytes at a time while all eight are sentence characters (most of a line),
                // then byte by byte up to the one that ends or breaks the sentence.
                var sum8: UInt64 = 0
                while index + 8 <= count && filled + 8 <= Self.maximumLength {
                    let word = UInt64(littleEndian: UnsafeRawPointer(input + index).loadUnaligned(as: UInt64.self))
                    guard Self.allSentenceCharacters(word) else { break }
                    UnsafeMutableRawPointer(buffer + filled).storeBytes(of: word.littleEndian, as: UInt64.self)
                    sum8 ^= word
                    filled += 8
                    index += 8
                }
                sum8 ^= sum8 >> 32
                sum8 ^= sum8 >> 16
                sum8 ^= sum8 >> 8
                sum ^= UInt8(truncatingIfNeeded: sum8)
                while index < count {
                    let byte = input[index]
                    guard Self.isSentenceCharacter(byte) else { break }
                    guard filled < Self.maximumLength else { break }
                    buffer[filled] = byte
                    sum ^= byte
                    filled += 1
                    index += 1
                }
                length = filled
                checksum = sum
                if filled == Self.maximumLength, index < count, Self.isSentenceCharacter(input[index]) {
                    counters.overlong += 1
                    length = 0
                    state = .discarding
                    continue
                }
                guard index < count else { break }
                let byte = input[index]
                index += 1
                switch byte {
                case ASCII.cr, ASCII.lf:
                    try finishSentence(body)
                    state = .hunting
                    length = 0
                case ASCII.dollar, ASCII.bang:
                    abandonSentence()
                    start(with: byte)
                case UBXSync.first:
                    abandonSentence()
                    startBinary()
                default:
                    // NUL, binary noise, ESC of an ANSI sequence: never part of a sentence.
                    abandonSentence()
                    counters.junkBytes += 1
                    state = .hunting
                }
            case .discarding:
                while index < count, Self.isSentenceCharacter(input[index]) { index += 1 }
                guard index < count else { break }
                let byte = input[index]
                index += 1
                switch byte {
                case ASCII.dollar, ASCII.bang:
                    start(with: byte)
                case UBXSync.first:
                    startBinary()
                case ASCII.cr, ASCII.lf:
                    state = .hunting
                default:
                    counters.junkBytes += 1
                    state = .hunting
                }
            }
        }
    }

    /// Consumes bytes of the UBX frame being skipped, from `index`; returns the index after the last
    /// byte it consumed. A byte that cannot belong to the frame is left for hunting.
    private func skipBinary(_ input: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
        var position = binaryPosition
        var sumA = binaryChecksumA
        var sumB = binaryChecksumB
        defer {
            binaryPosition = position
            binaryChecksumA = sumA
            binaryChecksumB = sumB
        }
        while index < count {
            let byte = input[index]
            switch position {
            case 1:
                guard byte == UBXSync.second else {
                    // A lone 0xB5 is noise; the byte after it may start a sentence.
                    counters.junkBytes += 1
                    state = .hunting
                    return index
                }
                sumA = 0
                sumB = 0
            case 2...5:
                sumA &+= byte
                sumB &+= sumA
                if position == 2 { binaryClass = byte }
                if position == 3 { captured = UBXIntegrityMessage.named(messageClass: binaryClass, id: byte) }
                if position == 4 { binaryLength = Int(byte) }
                if position == 5 {
                    binaryLength |= Int(byte) << 8
                    if binaryLength > Self.maximumBinaryPayload {
                        counters.junkBytes += 6
                        state = .hunting
                        return index + 1
                    }
                    if binaryLength > UBXIntegrityMessage.maximumPayload { captured = nil }
                }
            default:
                let payloadEnd = 6 + binaryLength
                if position < payloadEnd {
                    // The payload: checksum it in one tight run.
                    let run = min(payloadEnd - position, count - index)
                    if captured != nil { (capture + position - 6).update(from: input + index, count: run) }
                    for offset in 0..<run {
                        sumA &+= input[index + offset]
                        sumB &+= sumA
                    }
                    position += run
                    index += run
                    continue
                }
                if position == payloadEnd {
                    binaryFirstChecksumMatched = byte == sumA
                } else {
                    if binaryFirstChecksumMatched && byte == sumB {
                        counters.binaryFrames += 1
                        if let message = captured {
                            let payload = UnsafeBufferPointer(start: capture, count: binaryLength)
                            if receiverFlags.take(message, payload: payload) { counters.integrityMessages += 1 }
                        }
                    } else {
                        counters.binaryBadChecksum += 1
                    }
                    state = .hunting
                    return index + 1
                }
            }
            position += 1
            index += 1
        }
        return index
    }

    /// Whether all eight bytes of `word` are sentence characters. Each test flags a byte that is
    /// below 0x20, at or above 0x7F, or a start character; a flag may spill into the bytes above a
    /// flagged one, which only matters when there already is one.
    @inline(__always)
    static func allSentenceCharacters(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        let below20 = (word &- ones &* 0x20) & ~word & highs
        let flagged =
            below20 | (word & highs) | hasZeroByte(word ^ (ones &* 0x7F)) | hasZeroByte(word ^ (ones &* 0x24))
            | hasZeroByte(word ^ (ones &* 0x21))
        return flagged == 0
    }

    /// Printable ASCII other than the start characters: what a sentence is made of.
    @inline(__always)
    static func isSentenceCharacter(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte <= 0x7E && byte != ASCII.dollar && byte != ASCII.bang
    }

    @inline(__always)
    private func start(with byte: UInt8) {
        buffer[0] = byte
        length = 1
        checksum = 0
        state = .collecting
    }

    @inline(__always)
    private func startBinary() {
        binaryPosition = 1
        state = .binary
    }

    /// Feeds bytes from any collection (an array, a `Data`, a slice).
    public func push<Bytes: Collection<UInt8>>(
        contentsOf bytes: Bytes, _ body: (RawSentence) throws -> Void
    ) rethrows {
        let handled: Void? = try bytes.withContiguousStorageIfAvailable { buffer in
            try push(UnsafeRawBufferPointer(buffer), body)
        }
        if handled == nil {
            try Array(bytes).withUnsafeBytes { try push($0, body) }
        }
    }

    /// Counts a sentence that framed well but whose content is unusable (an invalid time of day).
    func countMalformed() { counters.malformed += 1 }

    /// Ends the stream: a partial sentence left at the end is counted as cut short.
    public func finish() {
        abandonSentence()
        if state == .binary {
            // A frame cut off by the end of input: its bytes were noise or are lost either way.
            counters.binaryBadChecksum += 1
        }
        state = .hunting
    }

    private func abandonSentence() {
        if state == .collecting {
            if length > 1 {
                counters.truncated += 1
            } else {
                counters.junkBytes += UInt64(length)
            }
        }
        length = 0
    }

    private func finishSentence(_ body: (RawSentence) throws -> Void) rethrows {
        let sentence = UnsafeBufferPointer(start: buffer, count: length)
        switch RawSentence.validate(sentence, xorAfterStart: checksum) {
        case .good(let raw):
            counters.sentences += 1
            if !raw.hasChecksum { counters.withoutChecksum += 1 }
            try body(raw)
        case .badChecksum:
            counters.badChecksum += 1
        case .malformed:
            counters.malformed += 1
        }
    }
}

/// What the framer saw, as counts since it was created.
public struct FramerCounters: Equatable, Sendable {
    /// Sentences passed on: checksum good, or no checksum at all.
    public var sentences: UInt64 = 0
    /// Of `sentences`, those that carried no checksum.
    public var withoutChecksum: UInt64 = 0
    /// Sentences dropped because the checksum did not match.
    public var badChecksum: UInt64 = 0
    /// Lines dropped for being longer than `Framer.maximumLength`.
    public var overlong: UInt64 = 0
    /// Sentences cut short: by the next start character, by a control byte, or by the end of input.
    public var truncated: UInt64 = 0
    /// Framed lines that are not sentences (no address, or a broken checksum field), and sentences
    /// dropped by fix assembly for a time field that is no time of day (those count in
    /// `sentences` too).
    public var malformed: UInt64 = 0
    /// Bytes outside any sentence (noise, text lines, escape sequences).
    public var junkBytes: UInt64 = 0
    /// Binary UBX frames skipped whole with a good checksum (a u-blox receiver's binary output
    /// between its sentences); their bytes are not junk.
    public var binaryFrames: UInt64 = 0
    /// UBX frames skipped whose checksum did not match (noise that began with the sync characters,
    /// or a frame damaged on the line).
    public var binaryBadChecksum: UInt64 = 0
    /// Of `binaryFrames`, the receiver's own jamming and spoofing reports read into
    /// `Framer.receiverFlags` (`UBXIntegrityMessage`, of a length their layout allows).
    public var integrityMessages: UInt64 = 0

    public init() {}
}

/// The two characters that start every UBX frame (u-blox's "µb").
enum UBXSync {
    static let first: UInt8 = 0xB5
    static let second: UInt8 = 0x62
}

enum ASCII {
    static let dollar: UInt8 = 0x24
    static let bang: UInt8 = 0x21
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let comma: UInt8 = 0x2C
    static let star: UInt8 = 0x2A
    static let dot: UInt8 = 0x2E
    static let minus: UInt8 = 0x2D
    static let plus: UInt8 = 0x2B
    static let zero: UInt8 = 0x30
}
