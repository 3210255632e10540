import Alerts
import Dispatch
import Foundation
import Geofence
import NMEA
import Store
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// What the reader thread hands the engine thread through the ring.
public enum EngineInput: Sendable, BitwiseCopyable {
    case fix(Fix)
    /// A receiver cycle without a usable fix: the receiver's clock still runs.
    case silentCycle(EpochTime)
    case endOfInput
}

/// `gpsfence replay`: captures -> framer -> fixes -> ring -> engine -> sinks, the live pipeline
/// with files for a receiver. Events depend only on the fix times in the captures, so any
/// `speed` gives the same events.
public struct ReplayJob {
    public var captures: [CaptureInput]
    public var fencesPath: String
    /// Real time scaled by this factor; nil: as fast as possible.
    public var speed: Double?
    public var settings = EventSettings()
    public var ringCapacity = 4096
    /// Draws a progress bar on standard error (only when it is a terminal).
    public var showsProgress = false
    /// The SPEC §8 state file: restored at the start, and every fix's events are committed to it
    /// before they reach the sinks.
    public var statePath: String?

    public init(captures: [CaptureInput], fencesPath: String) {
        self.captures = captures
        self.fencesPath = fencesPath
    }

    public struct Summary: Sendable {
        public var fixes = 0
        public var events = 0
        public var overflow = 0
    }

    /// Runs the replay to the end of the last capture. Bad fence files and unreadable captures
    /// throw `InputError` before anything is printed.
    public func run(sinks: [EventSink]) throws -> Summary {
        let fences = try FenceFile.load(fencesPath)
        let store: StateStore?
        do {
            store = try statePath.map { path throws(StoreError) in try StateStore(path: path) }
        } catch {
            throw InputError(message: error.description)
        }
        let opened = try CaptureInput.open(captures)
        let engine = EventEngine(fences: fences, settings: settings)
        if let store { engine.restore(try store.fenceStates()) }
        let ring = SPSCRing<EngineInput>(capacity: ringCapacity)
        let doorbell = DispatchSemaphore(value: 0)
        let reader = CaptureReader(opened: opened, ring: ring, doorbell: doorbell, speed: speed, showsProgress: showsProgress)
        let readerThread = Thread { reader.run() }
        readerThread.stackSize = 1 << 20
        readerThread.start()

        var summary = Summary()
        let pipeline = EventPipeline(fences: fences, store: store, sinks: sinks, webhooks: [])
        var batch: [GeofenceEvent] = []
        let collect: (GeofenceEvent) -> Void = { batch.append($0) }
        consume: while true {
            guard let input = ring.pop() else {
                doorbell.wait()
                continue
            }
            switch input {
            case .fix(let fix):
                summary.fixes += 1
                engine.process(fix, collect)
            case .silentCycle(let cycle):
                if let time = cycle.time { engine.tick(time, collect) }
            case .endOfInput:
                break consume
            }
            guard !batch.isEmpty else { continue }
            try pipeline.deliver(batch, insideStates: store == nil ? [] : engine.snapshot())
            batch.removeAll(keepingCapacity: true)
        }
        pipeline.finish()
        summary.events = pipeline.delivered
        summary.overflow = ring.overflow
        if let failure = reader.failure { throw failure }
        return summary
    }
}

/// The reader side of a replay: decodes the captures in order and pushes fixes into the ring,
/// paced to the receiver's clock when a speed is given.
final class CaptureReader: @unchecked Sendable {
    private let opened: [(CaptureInput, FileDescriptor)]
    private let ring: SPSCRing<EngineInput>
    private let doorbell: DispatchSemaphore
    private let speed: Double?
    private let progress: ProgressBar?
    /// Set before `.endOfInput` is pushed; read after the consumer saw it.
    private(set) var failure: InputError?

    /// Receiver time and monotonic wall time of the first timed input, for pacing.
    private var clockStart: (receiver: Int64, wall: UInt64)?

    init(opened: [(CaptureInput, FileDescriptor)], ring: SPSCRing<EngineInput>, doorbell: DispatchSemaphore,
         speed: Double?, showsProgress: Bool) {
        self.opened = opened
        self.ring = ring
        self.doorbell = doorbell
        self.speed = speed
        let total = opened.reduce(0) { sum, entry in sum + ((try? entry.1.seek(offset: 0, from: .end)) ?? 0) }
        for (_, descriptor) in opened { _ = try? descriptor.seek(offset: 0, from: .start) }
        progress = showsProgress && isatty(2) == 1 && total > 0 ? ProgressBar(total: total) : nil
    }

    func run() {
        defer {
            progress?.finish()
            for (input, descriptor) in opened where !input.isStandardInput { try? descriptor.close() }
            push(.endOfInput)
        }
        for (input, descriptor) in opened {
            let decoder = Decoder(skipsCommentLines: true)
            do {
                try CaptureInput.read(descriptor) { chunk in
                    decoder.push(
                        chunk, onFix: { self.push(.fix($0), at: $0.time) },
                        onNoFix: { self.push(.silentCycle($0), at: $0.time) })
                    progress?.advance(by: chunk.count)
                }
            } catch {
                failure = InputError(message: "cannot read '\(input.displayName)': \(error)")
                return
            }
            decoder.finish(onFix: { push(.fix($0), at: $0.time) }, onNoFix: { push(.silentCycle($0), at: $0.time) })
        }
    }

    private func push(_ input: EngineInput, at time: UTCTime?) {
        if let speed, let time { pace(to: time, speed: speed) }
        push(input)
    }

    /// A file can wait, so a replay never drops: when the ring is full the reader waits for room.
    /// (The live reader cannot wait for a serial port and drops instead; see `SPSCRing`.)
    private func push(_ input: EngineInput) {
        while !ring.push(input) { usleep(200) }
        doorbell.signal()
    }

    private func pace(to time: UTCTime, speed: Double) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let start = clockStart else {
            clockStart = (time.millisecondsSinceEpoch, now)
            return
        }
        let receiverElapsed = Double(time.millisecondsSinceEpoch - start.receiver) / 1000 / speed
        let due = start.wall &+ UInt64(min(max(0, receiverElapsed), 1e9) * 1e9)  // clamped: a date jump in a damaged capture
        if due > now { usleep(useconds_t(min((due - now) / 1000, 10_000_000))) }
    }
}

/// `[#########...........]  45%  1.2 of 2.6 MB` on standard error, redrawn at most 10 times a second.
final class ProgressBar: @unchecked Sendable {
    private let total: Int64
    private var done: Int64 = 0
    private var lastDraw: UInt64 = 0

    init(total: Int64) { self.total = total }

    func advance(by count: Int) {
        done += Int64(count)
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        draw()
    }

    func finish() {
        done = total
        draw()
        OutputWriter.standardError.write(line: "")
    }

    private func draw() {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let megabytes = { (bytes: Int64) in String(Double(bytes / 100_000) / 10) }
        let text = "\r[\(bar)] \(Int(fraction * 100))%  \(megabytes(done)) of \(megabytes(total)) MB"
        _ = text.withCString { write(2, $0, strlen($0)) }
    }
}
