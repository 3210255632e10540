import Dispatch
import Events
import NMEA
import Platform
import Receivers
import Synchronization
import SystemPackage

/// Captures as an engine input: decodes the files in order and emits their fixes, paced to the
/// receiver's clock when a speed is given. Events depend only on fix times, so any speed gives the
/// same events.
public final class CaptureFixSource: FixSource, @unchecked Sendable {
    private let opened: [(CaptureInput, FileDescriptor)]
    private let speed: Double?
    private let progress: ProgressBar?
    private let stopped = Atomic<Bool>(false)
    /// Set before `run` returns; read after the engine saw the end of input.
    package private(set) var failure: InputError?

    /// Fix time (ms) at or before which nothing is emitted: the state file's last fix, when the
    /// replay goes into one that already holds that time. Set before `run`.
    public var skipsThrough: Int64?
    /// The fixes not emitted for `skipsThrough`; read after the engine saw the end of input.
    public private(set) var skippedFixes = 0

    /// Receiver time and monotonic wall time of the first timed input, for pacing.
    private var clockStart: (receiver: Int64, wall: UInt64)?
    /// `run` is the reader thread's; its state is unguarded.
    private let reader = OneThreadAtATime("CaptureFixSource.run")

    public var waitsForRoom: Bool { true }
    public var isLive: Bool { false }
    public var readCues: ReadSchedule.Cues? { nil }

    /// Opens every capture before any is read, so that a typo in the third path fails before the
    /// first has printed anything.
    /// - Parameter speed: real time scaled by this factor; nil: as fast as possible.
    /// - Parameter showsProgress: draw a bar on standard error when it is a terminal. A paced replay
    ///   prints its lines as they happen, so it draws the bar only when standard output goes
    ///   elsewhere (the two would share one line of the terminal).
    public init(captures: [CaptureInput], speed: Double?, showsProgress: Bool) throws(InputError) {
        opened = try CaptureInput.open(captures)
        self.speed = speed
        let total = opened.reduce(0) { sum, entry in sum + ((try? entry.1.seek(offset: 0, from: .end)) ?? 0) }
        for (_, descriptor) in opened { _ = try? descriptor.seek(offset: 0, from: .start) }
        let terminalFree = speed == nil || !StandardStream.output.isTerminal
        progress =
            showsProgress && StandardStream.error.isTerminal && total > 0 && terminalFree
            ? ProgressBar(total: total) : nil
    }

    /// Whether `stop` ended the replay before the end of its captures (the engine also calls
    /// `stop` once the input has ended; that is not early).
    public private(set) var wasStopped = false

    public func stop() { stopped.store(true, ordering: .relaxed) }

    public func run(_ emit: (EngineInput) -> Void) {
        let claim = reader.enter()
        defer { reader.leave(claim) }
        defer {
            progress?.finish(complete: !wasStopped)
            for (input, descriptor) in opened where !input.isStandardInput { try? descriptor.close() }
        }
        for (input, descriptor) in opened {
            var decoder: Decoder?
            var clock = ReceiverClock(borrowsSystemDate: false)
            func push(_ input: EngineInput, _ time: UTCTime?) {
                // What the state file holds already would only repeat its events, which its log
                // keeps once: neither paced nor emitted, only counted.
                if let skipsThrough, let time, time.millisecondsSinceEpoch <= skipsThrough {
                    if case .fix = input { skippedFixes += 1 }
                    return
                }
                if let speed, let time { pace(to: time, speed: speed) }
                if stopped.load(ordering: .relaxed) {
                    wasStopped = true
                    return
                }
                emit(input)
            }
            // The decoder holds its assembler for the length of a push: a correction is seen after it.
            func sayRollover() {
                if let decoder,
                    let notice = clock.rolloverNotice(decoder.assembler.firstRollover, device: input.displayName)
                {
                    emit(.problem(notice))
                }
            }
            var bytes: UInt64 = 0
            do {
                // Paced, a capture is read in small pieces so that the bar moves with the fixes as
                // they are played (a whole capture fits one fast-replay chunk).
                try CaptureInput.read(descriptor, chunkSize: speed == nil ? 256 * 1024 : 2048) { chunk in
                    if stopped.load(ordering: .relaxed) { throw CancellationError() }
                    if bytes == 0, let problem = FileKind.sniff(chunk).captureProblem(input.displayName) {
                        throw problem
                    }
                    bytes += UInt64(chunk.count)
                    // A capture that `record` made names its recording day: its dates are judged
                    // against that, as they were live (docs/nmea.md).
                    let current =
                        decoder
                        ?? Decoder(
                            rollover: CaptureHeader.recordingDate(in: chunk).map { .plausible(epoch: $0) } ?? .captures,
                            skipsCommentLines: true)
                    current.tracksSky = true
                    decoder = current
                    current.push(
                        chunk, onFix: { push(.fix($0, sky: current.takeSky(at: $0.timeOfDay)), $0.time) },
                        onNoFix: { push(.silentCycle($0, sky: current.takeSky(at: $0.timeOfDay)), $0.time) })
                    sayRollover()
                    progress?.advance(by: chunk.count)
                }
            } catch is CancellationError {
                wasStopped = true
                return
            } catch let problem as InputError {
                failure = problem
                return
            } catch {
                failure = InputError.unreadable(path: input.displayName, cause: .error(error))
                return
            }
            if let decoder {
                decoder.finish(
                    onFix: { push(.fix($0, sky: decoder.takeSky(at: $0.timeOfDay)), $0.time) },
                    onNoFix: { push(.silentCycle($0, sky: decoder.takeSky(at: $0.timeOfDay)), $0.time) })
            }
            sayRollover()
            let framer = decoder?.framer.counters
            if (framer?.sentences ?? 0) == 0 && (framer?.badChecksum ?? 0) == 0 && (framer?.withoutChecksum ?? 0) == 0 {
                failure = InputError.noNMEA(path: input.displayName, bytes: bytes)
                return
            }
        }
    }

    private func pace(to time: UTCTime, speed: Double) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let start = clockStart else {
            clockStart = (time.millisecondsSinceEpoch, now)
            return
        }
        let receiverElapsed = Double(time.millisecondsSinceEpoch - start.receiver) / 1000 / speed
        // Clamped: a date jump in a damaged capture must not overflow the deadline.
        let due = start.wall &+ UInt64(min(max(0, receiverElapsed), 1e9) * 1e9)
        // In slices, so that a stop (Ctrl-C) is seen within 0.1 s however far the next fix is.
        while !stopped.load(ordering: .relaxed) {
            let left = Int64(bitPattern: due &- DispatchTime.now().uptimeNanoseconds)
            guard left > 0 else { return }
            napSeconds(Double(min(left / 1000, 100_000)) / 1e6)
        }
    }
}
