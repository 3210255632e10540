import NMEA
import Alerts
import SystemPackage

/// `gpsfence decode`: captures in, one JSON line per fix (or per sentence) out.
public struct DecodeJob {
    public var inputs: [CaptureInput]
    public var perSentence = false
    public var rollover = WeekRollover.captures

    public init(inputs: [CaptureInput]) {
        self.inputs = inputs.isEmpty ? [CaptureInput(path: "-")] : inputs
    }

    public struct Summary {
        public var input: String
        public var framer: FramerCounters
        public var counts: SentenceCounts
        public var fixes: UInt64
    }

    /// Decodes every input in order, each as its own stream. Returns one summary per input.
    public func run(output: OutputWriter) throws -> [Summary] {
        let opened = try CaptureInput.open(inputs)
        defer {
            for (input, descriptor) in opened where !input.isStandardInput { try? descriptor.close() }
        }
        var summaries: [Summary] = []
        for (input, descriptor) in opened {
            let decoder = Decoder(rollover: rollover, skipsCommentLines: true)
            let emitFix: (Fix) -> Void = perSentence ? { _ in } : { output.write(line: $0.json) }
            do {
                try CaptureInput.read(descriptor) { chunk in
                    if perSentence {
                        decoder.push(chunk, onSentence: { raw, sentence in
                            output.write(line: sentence.json(raw: raw))
                        }, onFix: emitFix)
                    } else {
                        decoder.push(chunk, onFix: emitFix)
                    }
                }
            } catch let error as Errno {
                throw InputError(message: "cannot read '\(input.displayName)': \(error.description)")
            }
            decoder.finish(onFix: emitFix)
            summaries.append(
                Summary(input: input.displayName, framer: decoder.framer.counters, counts: decoder.counts,
                        fixes: decoder.fixes))
        }
        output.flush()
        return summaries
    }
}

extension DecodeJob.Summary {
    /// The `--stats` text: one block per input.
    public var report: String {
        let byType = counts.entries.map { "\($0.type)=\($0.count)" }.joined(separator: " ")
        return """
            \(input): \(fixes) fixes; \(framer.sentences) sentences (\(framer.withoutChecksum) without checksum); \
            dropped: \(framer.badChecksum) bad checksum, \(framer.truncated) cut short, \(framer.overlong) over-long, \
            \(framer.malformed) malformed; \(framer.junkBytes) junk bytes
              by type: \(byType.isEmpty ? "none" : byType)
            """
    }
}
