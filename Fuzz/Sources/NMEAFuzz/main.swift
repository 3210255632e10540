// libFuzzer entry point: bytes -> Decoder (framer + Sentence + FixAssembler) -> fixes and JSON.
//
// Besides "does not crash", each input checks properties that must hold for any bytes:
// - chunking does not matter: the same bytes pushed whole, byte by byte and in input-derived
//   chunk sizes give the same fixes and the same framer counters (a serial port's read() can
//   split anywhere);
// - every fix is in range and not at 0,0 (docs/nmea.md);
// - the JSON lines are one line of text (no raw control characters).
// A violated property traps, which libFuzzer reports like any crash.
import NMEA

struct Outcome: Equatable {
    var fixes: [Fix] = []
    var counters = FramerCounters()
    var sentences = 0
}

/// Decodes `bytes` in chunks whose sizes `nextChunk` picks; optionally renders the JSON output.
func run(
    _ bytes: UnsafeRawBufferPointer, skipsComments: Bool, renderJSON: Bool, nextChunk: (Int) -> Int
) -> Outcome {
    let decoder = Decoder(skipsCommentLines: skipsComments)
    var outcome = Outcome()
    let onFix = { (fix: Fix) in
        check(fix)
        outcome.fixes.append(fix)
        if renderJSON { checkJSON(fix.json) }
    }
    var start = 0
    var step = 0
    while start < bytes.count {
        let end = min(bytes.count, start + max(1, nextChunk(step)))
        decoder.push(
            UnsafeRawBufferPointer(rebasing: bytes[start..<end]),
            onSentence: { raw, sentence in
                outcome.sentences += 1
                if renderJSON { checkJSON(sentence.json(raw: raw)) }
            }, onFix: onFix)
        start = end
        step += 1
    }
    decoder.finish(onFix: onFix)
    outcome.counters = decoder.framer.counters
    precondition(decoder.fixes == UInt64(outcome.fixes.count), "fix count disagrees with fixes emitted")
    precondition(outcome.counters.sentences == UInt64(outcome.sentences), "sentence count disagrees")
    return outcome
}

func check(_ fix: Fix) {
    precondition((-90...90).contains(fix.latitude), "latitude out of range: \(fix.latitude)")
    precondition((-180...180).contains(fix.longitude), "longitude out of range: \(fix.longitude)")
    precondition(!(fix.latitude == 0 && fix.longitude == 0), "fix at 0,0")
    // Leap second 23:59:60.9995 rounds up to at most a day plus one second.
    precondition((0...TimeOfDay.millisecondsPerDay + 1000).contains(fix.timeOfDay.milliseconds))
}

func checkJSON(_ line: String) {
    precondition(line.first == "{" && line.last == "}", "not a JSON object: \(line)")
    precondition(!line.utf8.contains { $0 < 0x20 }, "raw control character in JSON: \(line)")
}

/// Rewrites every `*HH` after a start character with the correct checksum. Most mutations break
/// the checksum, and a sentence with a bad one never reaches the field decoders or fix assembly;
/// with this, half the inputs exercise them with arbitrary field contents.
func repairChecksums(_ bytes: inout [UInt8]) {
    var start: Int?
    var sum: UInt8 = 0
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x24 || byte == 0x21 {
            start = index
            sum = 0
        } else if byte == 0x2A, start != nil, index + 2 < bytes.count {
            let hex = Array("0123456789ABCDEF".utf8)
            bytes[index + 1] = hex[Int(sum >> 4)]
            bytes[index + 2] = hex[Int(sum & 15)]
            start = nil
            index += 2
        } else if start != nil {
            sum ^= byte
        }
        index += 1
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte chooses the mode: bit 0 comment skipping (capture files) or not (live port),
    // bit 1 checksums repaired or left as they are (framing and checksum paths).
    let skipsComments = size > 0 && data[0] & 1 == 1
    if size > 0 && data[0] & 2 == 2 { repairChecksums(&input) }
    input.withUnsafeBytes { check($0, skipsComments: skipsComments) }
    return 0
}

func check(_ bytes: UnsafeRawBufferPointer, skipsComments: Bool) {
    let size = bytes.count
    let whole = run(bytes, skipsComments: skipsComments, renderJSON: true) { _ in size }
    let single = run(bytes, skipsComments: skipsComments, renderJSON: false) { _ in 1 }
    // Chunk sizes 1...31 read from the input itself, so cuts land at varied places.
    let varied = run(bytes, skipsComments: skipsComments, renderJSON: false) { step in
        size == 0 ? 1 : 1 + Int(bytes[(step &* 7) % size] & 31)
    }
    precondition(whole == single, "byte-by-byte decoding differs from whole-buffer decoding")
    precondition(whole == varied, "chunked decoding differs from whole-buffer decoding")
}
