import Dispatch
import JSONInput
import Synchronization

/// The second half of a big FeatureCollection's features, read by a thread of its own while the
/// loader reads the first half: on two processors a country's roads load in little more than half
/// the time of one reading.
///
/// Where the second half starts is a guess: the first object after the middle of the file that
/// begins `{"type": "Feature"`. The guess needs no parsing; the loader checks it when it gets
/// there, and takes what was read only when its own reading ends just before a feature that starts
/// at that very byte, which makes it a feature of the same array. Otherwise (the text was inside a
/// property) it reads on by itself and what was read here is dropped.
///
/// This reading stops before a feature it cannot read as the loader would: one with a problem, a
/// polygon (its store is not appended), or a feature without an id (a derived id depends on the
/// features before it). The loader goes on from there itself, so a bad file is refused in the words
/// and at the feature a single reading names.
///
/// Threading: `start` runs `read` on a global Dispatch queue. The reader's state is written by that
/// thread only, until it signals `done`; the loader's thread reads it only after waiting on
/// `done`, in `finish`, which the loader calls on every way out of its features array, so the
/// file's bytes outlive this reading.
final class SecondHalfReader: @unchecked Sendable {
    /// Where its first feature starts (the `{`).
    let start: Int
    private var loader: GeoJSONLoader
    private var count = 0
    /// Just after the last feature read, before what separates it from the next.
    private var resume: Int
    private let done = DispatchSemaphore(value: 0)
    private let stopRequested = Atomic<Bool>(false)
    /// True while the worker reads: `finish` asserts it false after its wait.
    private let reading = Atomic<Bool>(true)
    private var finished = false

    private init(loader: GeoJSONLoader, start: Int) {
        self.loader = loader
        self.start = start
        resume = start
    }

    /// A reader started on the features after the middle of `scanner`'s text, from its position
    /// on; nil when no feature starts in the few megabytes after the middle.
    static func start(scanner: JSONScanner, file: String, releasable: Bool) -> SecondHalfReader? {
        let middle = scanner.pos + (scanner.end - scanner.pos) / 2
        let window = min(scanner.end, middle + (8 << 20))
        var at = middle
        while at < window {
            if scanner.base[at] == 0x7B && startsFeature(scanner, at) { break }
            at += 1
        }
        guard at < window else { return nil }
        var loader = GeoJSONLoader(
            bytes: UnsafeBufferPointer(start: scanner.base, count: scanner.end), file: file, from: at)
        loader.releasable = releasable
        let reader = SecondHalfReader(loader: loader, start: at)
        DispatchQueue.global().async {
            reader.read()
            reader.reading.store(false, ordering: .releasing)
            reader.done.signal()
        }
        return reader
    }

    /// Whether the text at `at` reads `{`, `"type"`, `:`, `"Feature"`, blanks allowed between.
    static func startsFeature(_ scanner: JSONScanner, _ at: Int) -> Bool {
        var probe = scanner
        probe.pos = at + 1
        for word in ["\"type\"", ":", "\"Feature\""] {
            probe.skipWhitespace()
            for byte in word.utf8 {
                guard probe.pos < probe.end, probe.base[probe.pos] == byte else { return false }
                probe.pos += 1
            }
        }
        return true
    }

    private func read() {
        var released = start
        repeat {
            if stopRequested.load(ordering: .relaxed) { return }
            do { try loader.feature() } catch { return }
            count += 1
            resume = loader.scanner.pos
            if count == 1024 {
                let bytesPerFeature = Double(resume - start) / Double(count)
                loader.builder.reserveIDs(Int(Double(loader.scanner.end - start) / bytesPerFeature * 1.1))
            }
            if resume - released > 8 << 20 { released = loader.releasePages(from: released, upTo: resume) }
        } while (try? loader.scanner.next(close: 0x5D)) == true
    }

    /// Waits for the reading to end, asking it to stop first when `stop`; then what it read: the
    /// fences, how many, and where the loader goes on. Nil when it read nothing, or when asked to
    /// stop, or asked a second time.
    @discardableResult
    func finish(stop: Bool = false) -> (builder: FenceSetBuilder, count: Int, resume: Int)? {
        if finished { return nil }
        finished = true
        if stop { stopRequested.store(true, ordering: .relaxed) }
        done.wait()
        assert(!reading.load(ordering: .acquiring), "the second half read from while its worker reads")
        guard !stop, count > 0 else { return nil }
        return (loader.builder, count, resume)
    }
}

/// What became of a loader's second half (`GeoJSONLoader.secondHalf`).
enum SecondHalfOutcome: Equatable {
    /// The file was read in one piece.
    case none
    /// Started and not yet waited for.
    case started
    /// Waited for, and its fences appended.
    case taken
    /// Waited for, and what it read dropped.
    case dropped
}

/// Ends a `SecondHalfReader`'s reading before a feature the loader reads itself.
struct SecondHalfStop: Error {}
