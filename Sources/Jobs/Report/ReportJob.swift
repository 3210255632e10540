import Delivery
import Events
import Fences
import Foundation
import LiveLoop
import NMEA
import Presentation
import Store
import SystemPackage
import Views

/// `gpsfence report` (docs/report.md): the field report of a drive, from captures (through the same
/// engine loop and settings as `replay`) or from the track and event log of a state file.
public struct ReportJob {
    public enum Input {
        case captures([CaptureInput])
        /// A state file, from this fix time on (ms since 1970; nil: all it keeps).
        case state(path: String, since: Int64?)
    }

    public var input: Input
    /// The fence file; nil with a state file: the one the state file records (`run` and
    /// `replay --state` note it).
    public var fencesPath: String?
    public var settings = EventSettings()

    public init(input: Input, fencesPath: String?) {
        self.input = input
        self.fencesPath = fencesPath
    }

    /// Reads the input and gathers the report. Bad fence files, captures or state files throw
    /// `InputError`.
    public func gather() throws -> FieldReport {
        let fences = try FenceFile.load(try resolvedFencesPath())
        switch input {
        case .captures(let captures):
            return try fromCaptures(captures, fences: fences)
        case .state(let path, let since):
            return try fromState(path, since: since, fences: fences)
        }
    }

    /// `--fences`, else the fence file the state file records.
    func resolvedFencesPath() throws -> String {
        if let fencesPath { return fencesPath }
        guard case .state(let path, _) = input else {
            throw InputError.option(.companionMissing(.capturesNeedFences))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StateFileMissing(path: path, need: .track)
        }
        let store: StateStore
        do { store = try StateStore(path: path, access: .readOnly) } catch {
            throw InputError.unusableState(error)
        }
        guard let recorded = try store.receiver().fencesPath else {
            throw InputError.stateFile(path: path, .noFenceFile)
        }
        return recorded
    }

    private func fromCaptures(_ captures: [CaptureInput], fences: FenceSet) throws -> FieldReport {
        let collector = CollectingSink(maxAccuracy: settings.maxAccuracy)
        let source = try CaptureFixSource(captures: captures, speed: nil, showsProgress: false)
        var configuration = EngineLoop.Configuration()
        configuration.settings = settings
        configuration.ringCapacity = 4096
        let loop = try EngineLoop(
            configuration: configuration, fences: fences, store: nil, sinks: [collector], reports: ProblemReports())
        _ = try loop.run(source)
        if let failure = source.failure { throw failure }
        // Sentence counts come from a second, counting-only pass over the files (standard input
        // cannot be read twice: then they are left out).
        var statistics = ReceiverStatistics(fixes: collector.fixes, usableFixes: collector.points.count)
        if !captures.contains(where: \.isStandardInput) {
            let decoder = Decoder(skipsCommentLines: true)
            var cycles = 0
            for (input, descriptor) in try CaptureInput.open(captures) {
                defer { try? descriptor.close() }
                do {
                    try CaptureInput.read(descriptor) { chunk in
                        decoder.push(chunk, onFix: { _ in cycles += 1 }, onNoFix: { _ in cycles += 1 })
                    }
                } catch {
                    throw InputError.unreadable(path: input.displayName, cause: .error(error))
                }
            }
            decoder.finish(onFix: { _ in cycles += 1 }, onNoFix: { _ in cycles += 1 })
            let counters = decoder.framer.counters
            statistics.sentences = counters.sentences
            statistics.badChecksums = counters.badChecksum
            statistics.cycles = cycles
        }
        let title = captures.map(\.displayName).joined(separator: ", ")
        let lookup = FenceLookup(fences)
        let events = collector.records.map { ReportEvent($0, fences: lookup) }
        var report = FieldReport(
            title: title, fences: fences, points: collector.points, events: events, statistics: statistics,
            gapSeconds: settings.stale, maxSpeed: settings.maxSpeed)
        report.vehicleHeight = settings.vehicle.height
        return report
    }

    private func fromState(_ path: String, since: Int64?, fences: FenceSet) throws -> FieldReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StateFileMissing(path: path, need: .track)
        }
        let store = try StateStore(path: path, access: .readOnly)
        let from = since ?? .min
        let points = try store.track(from: from)
        let lookup = FenceLookup(fences)
        let events = try store.eventRecords(from: from).map { ReportEvent($0, fences: lookup) }
        let receiver = try store.receiver()
        let statistics = ReceiverStatistics(
            fixes: points.count, usableFixes: points.count,
            device: receiver.device.map { $0 + (receiver.detail.map { " " + $0 } ?? "") })
        // The state file keeps one fix a second at most: a gap is a pause longer than the stale
        // time, or than two kept seconds.
        var report = FieldReport(
            title: path, fences: fences, points: points, events: events, statistics: statistics,
            gapSeconds: max(settings.stale, 2), maxSpeed: settings.maxSpeed)
        report.vehicleHeight = settings.vehicle.height
        return report
    }

    /// Parses `--since`: a duration back from `now` (`90s`, `30m`, `2h`, `7d`) or an ISO time
    /// (`2026-02-03T10:00:00Z`). Nil when it is neither.
    public static func since(_ text: String, now: Int64) -> Int64? {
        if let time = UTCTime(iso: text) { return time.millisecondsSinceEpoch }
        if let time = UTCTime(iso: text.replacingOccurrences(of: "Z", with: ".000Z")) {
            return time.millisecondsSinceEpoch
        }
        guard let seconds = HumanText.seconds(withUnit: text), seconds >= 0 else { return nil }
        return now - Int64(seconds * 1000)
    }
}

/// Watches a capture go through the engine: every event (typed), and every usable fix.
final class CollectingSink: EventSink {
    let maxAccuracy: Double
    private(set) var records: [EventRecord] = []
    private(set) var points: [TrackPoint] = []
    private(set) var fixes = 0

    init(maxAccuracy: Double) { self.maxAccuracy = maxAccuracy }

    func deliver(_ event: OutgoingEvent, fences: FenceSet) { records.append(EventRecord(event, fences: fences)) }
    var observesFixes: Bool { true }
    func observe(_ fix: Fix) {
        fixes += 1
        guard let time = fix.time, (fix.accuracy ?? 0) <= maxAccuracy else { return }
        points.append(TrackPoint(fix, time: time.millisecondsSinceEpoch))
    }
    func finish() {}
}
