import Delivery
import Dispatch
import JSONOutput
import LiveLoop
import NMEA
import Platform
import Presentation
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
        /// Bytes read from the input.
        public var bytes: UInt64 = 0

        /// Whether no NMEA sentence at all was found (not even a damaged one).
        var holdsNoNMEA: Bool { framer.sentences == 0 && framer.badChecksum == 0 && framer.withoutChecksum == 0 }
    }

    /// An input in which no NMEA was found at all, as bad input: checked after the statistics are
    /// printed, which say what was found instead.
    public static func noNMEAProblem(_ summaries: [Summary]) -> InputError? {
        guard let empty = summaries.first(where: \.holdsNoNMEA) else { return nil }
        return InputError.noNMEA(path: empty.input, bytes: empty.bytes)
    }

    /// Decodes every input in order, each as its own stream. Returns one summary per input.
    public func run(output: OutputWriter) throws -> [Summary] {
        let opened = try CaptureInput.open(inputs)
        defer {
            for (input, descriptor) in opened where !input.isStandardInput { try? descriptor.close() }
        }
        var summaries: [Summary] = []
        // One buffer for every line: objects are written into it and handed to `output` in
        // blocks of 64 KiB, so printing costs no `String` and no lock per line.
        let json = JSONBuffer(capacity: 80 * 1024)
        func drain() {
            json.withUnsafeBytes { output.write(bytes: $0) }
            json.removeAll()
        }
        for (input, descriptor) in opened {
            let decoder = Decoder(rollover: rollover, skipsCommentLines: true)
            // Per fix, the decoding thread only copies the fix into a batch; a second thread
            // formats and writes the batches, so the JSON costs no time on the decoding path.
            let printer = FixPrinter(output: output)
            var batch: [Fix] = []
            batch.reserveCapacity(FixPrinter.batchSize)
            let emitFix: (Fix) -> Void =
                perSentence
                ? { _ in }
                : { fix in
                    batch.append(fix)
                    if batch.count == FixPrinter.batchSize {
                        printer.print(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            var bytes: UInt64 = 0
            do {
                try Self.readMapped(descriptor) { chunk in
                    if bytes == 0, let problem = FileKind.sniff(chunk).captureProblem(input.displayName) {
                        throw problem
                    }
                    bytes += UInt64(chunk.count)
                    if perSentence {
                        decoder.push(
                            chunk,
                            onSentence: { raw, sentence in
                                sentence.writeJSON(raw: raw, to: json)
                                json.endLine()
                                if json.count >= 64 * 1024 { drain() }
                            }, onFix: emitFix)
                    } else {
                        decoder.push(chunk, onFix: emitFix)
                    }
                }
            } catch let error as Errno {
                printer.print(batch)
                printer.finish()
                drain()
                output.flush()
                throw InputError.unreadable(path: input.displayName, cause: .error(error))
            }
            decoder.finish(onFix: emitFix)
            printer.print(batch)
            printer.finish()
            summaries.append(
                Summary(
                    input: input.displayName, framer: decoder.framer.counters, counts: decoder.counts,
                    fixes: decoder.fixes, bytes: bytes))
        }
        drain()
        output.flush()
        return summaries
    }
}

extension DecodeJob {
    /// Hands a capture over in chunks like `CaptureInput.read`, but a regular file is mapped
    /// instead of read: `read(2)` copying 50 MB was a tenth of `decode`'s time. Pages already
    /// decoded are released every 8 MB, so a capture of gigabytes never stays resident.
    static func readMapped(_ descriptor: FileDescriptor, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let wasMapped = try MappedFile.withMapping(descriptor) { mapped in
            let size = mapped.count
            let chunk = 256 * 1024
            var offset = 0
            var released = 0
            while offset < size {
                let n = min(chunk, size - offset)
                try body(UnsafeRawBufferPointer(rebasing: mapped[offset..<offset + n]))
                offset += n
                if offset - released >= 8 << 20 {
                    dropMappedPages(mapped.baseAddress! + released, count: offset - released)
                    released = offset
                }
            }
        }
        if !wasMapped { try CaptureInput.read(descriptor, body) }
    }
}

/// Formats and writes batches of fixes on its own serial queue, in order. At most a few batches
/// are in flight, so a slow standard output holds the decoder back instead of filling memory.
final class FixPrinter: @unchecked Sendable {
    static let batchSize = 2048
    let output: OutputWriter
    let queue = DispatchQueue(label: "gpsfence.decode.print")
    let inFlight = DispatchSemaphore(value: 4)
    /// Used only on `queue`.
    let json = JSONBuffer(capacity: 80 * 1024)

    init(output: OutputWriter) { self.output = output }

    func print(_ fixes: [Fix]) {
        guard !fixes.isEmpty else { return }
        inFlight.wait()
        queue.async {
            dispatchPrecondition(condition: .onQueue(self.queue))
            for fix in fixes {
                fix.writeJSON(to: self.json)
                self.json.endLine()
                if self.json.count >= 64 * 1024 { self.drain() }
            }
            self.drain()
            self.inFlight.signal()
        }
    }

    private func drain() {
        json.withUnsafeBytes { output.write(bytes: $0) }
        json.removeAll()
    }

    /// Returns when everything handed over has been written.
    func finish() { queue.sync {} }
}

extension DecodeJob.Summary {
    /// The `--stats` text: one block per input.
    public var report: String {
        let byType = counts.entries.map { "\($0.type)=\($0.count)" }.joined(separator: " ")
        return """
            \(input): \(fixes) fixes; \(framer.sentences) sentences (\(framer.withoutChecksum) without checksum); \
            dropped: \(framer.badChecksum) bad checksum, \(framer.truncated) cut short, \(framer.overlong) over-long, \
            \(framer.malformed) malformed; \(framer.junkBytes) junk bytes; \(framer.binaryFrames) binary frames \
            skipped (\(framer.binaryBadChecksum) damaged)
              by type: \(byType.isEmpty ? "none" : byType)
            """
    }
}
