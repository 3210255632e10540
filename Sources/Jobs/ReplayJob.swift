import Delivery
import Events
import Fences
import Foundation
import LiveLoop
import NMEA
import Platform
import Presentation
import Store

/// `gpsfence replay`: captures through the engine loop, the live pipeline with files for a
/// receiver, and every alert that `run` has (docs/running.md).
public struct ReplayJob {
    public var captures: [CaptureInput]
    /// nil: no fence file (an anchor watch alone).
    public var fencesPath: String?
    /// Real time scaled by this factor; nil: as fast as possible.
    public var speed: Double?
    public var settings = EventSettings()
    public var ringCapacity = 4096
    /// Draws a progress bar on standard error (only when it is a terminal).
    public var showsProgress = false
    /// The docs/running.md state file: restored at the start, and every fix's events are committed to it
    /// before they reach the sinks.
    public var statePath: String?
    /// At the end, how long delivery sinks may take to empty their outbox queues.
    public var drainTimeout = 30.0
    /// Days of track kept in the state file (docs/report.md).
    public var keepDays = 7.0
    /// `--sync`: the track to a server (docs/running.md); needs `statePath`, which holds its cursor.
    public var sync: TrackSyncConfiguration?
    /// Whose days the odometer counts and in which zone its notices give times.
    public var calendar = LocalCalendar.utc
    /// The anchor watch, as `run` keeps it (`--anchor`, `--anchor-at`, `--anchor-warn`): a
    /// recorded night at anchor replayed (docs/running.md, "At anchor").
    public var layers = FenceLayerOptions()
    /// What raises an alarm; nil: none. A replay gives the alarm's events only: nothing rings,
    /// and nobody answers, so an alarm once raised stays active to the end.
    public var alarms: AlarmPolicy?

    public init(captures: [CaptureInput], fencesPath: String?) {
        self.captures = captures
        self.fencesPath = fencesPath
    }

    public typealias Summary = EngineLoop.Summary

    /// Runs the replay to the end of the last capture. Bad fence files and unreadable captures
    /// throw `InputError` before anything is printed.
    ///
    /// - Parameters:
    ///   - needsOutbox: some sink delivers through the outbox; without `statePath` a temporary
    ///     state file holds it for the length of the replay.
    ///   - makeSinks: builds the sinks once the state file is open.
    public func run(needsOutbox: Bool = false, makeSinks: (SinkContext) throws -> [EventSink]) throws -> Summary {
        if sync != nil, statePath == nil {
            throw InputError.option(.companionMissing(.syncNeedsState))
        }
        let fences = try fencesPath.map(FenceFile.load) ?? .none
        let temporary = statePath == nil && needsOutbox ? try TemporaryStateFile() : nil
        defer { temporary?.remove() }
        let store = try StateStore.open(statePath ?? temporary?.path)
        // A replay writes its state file as a run does, so it claims it as a run does: never
        // beside a run (or another replay) that writes it too.
        let lock = try statePath.map { path throws(StateInUse) in try StateLock.acquire(statePath: path) }
        defer { withExtendedLifetime(lock) {} }
        let source = try CaptureFixSource(captures: captures, speed: speed, showsProgress: showsProgress)
        let heldThrough = try store?.receiver().lastFixTime
        source.skipsThrough = heldThrough
        let reports = ProblemReports()
        var sinks = try makeSinks(
            SinkContext(
                reportProblem: reports.reportProblem, outbox: store, inputEnds: true, drainTimeout: drainTimeout,
                statePath: statePath
            ))
        sinks.append(FarFencesWarning(fences: fences))
        if let sync, let store {
            sinks.append(try sync.sink(store: store, drainTimeout: drainTimeout, report: reports.reportProblem))
        }
        var configuration = EngineLoop.Configuration()
        configuration.settings = settings
        configuration.ringCapacity = ringCapacity
        configuration.fencesPath = fencesPath
        configuration.keepDays = keepDays
        configuration.syncTarget = sync?.target
        configuration.calendar = calendar
        configuration.layers = layers
        // A replay with an anchor keeps the anchor as a run does (in the state file, when given);
        // without one, the state file's saved layers are left as they are.
        configuration.layers.ownsLayers = layers.anchorRadius != nil
        configuration.alarms = alarms
        // Ctrl-C (or SIGTERM) stops a replay as it stops `run`: the fixes read so far are
        // processed, their events printed and committed, hooks and deliveries finished, exit 0
        // (docs/running.md).
        configuration.stopsOnSignals = true
        StopSignals.install()
        let loop = try EngineLoop(
            configuration: configuration, fences: fences, store: store, sinks: sinks, reports: reports)
        let summary = try loop.run(source)
        if let failure = source.failure { throw failure }
        if source.wasStopped {
            OutputWriter.standardError.write(
                line: "gpsfence: replay stopped after \(summary.fixes) fixes, before the end of the capture; "
                    + "their events are above\(statePath.map { " and in " + $0 } ?? "")")
        }
        if summary.ignoredFixes > 0 {
            OutputWriter.standardError.write(
                line: "gpsfence: \(summary.ignoredFixes) fixes ignored: jumps no vehicle makes "
                    + "(receiver glitches, faster than --max-speed allows)")
        }
        if let heldThrough, let statePath, source.skippedFixes > 0 {
            OutputWriter.standardError.write(
                line: "gpsfence: "
                    + Self.skippedNotice(
                        skipped: source.skippedFixes, total: source.skippedFixes + summary.fixes,
                        heldThrough: heldThrough,
                        statePath: statePath, calendar: calendar))
        }
        if let store { try reportUndelivered(sinks.compactMap(\.outboxTarget), store: store, kept: statePath) }
        return summary
    }

    /// Why a replay into a state file printed fewer events than the capture holds: the file had
    /// seen those fix times already (most often: this capture, replayed into it before).
    static func skippedNotice(
        skipped: Int, total: Int, heldThrough: Int64, statePath: String, calendar: LocalCalendar = .utc
    ) -> String {
        let which = skipped == total ? "all \(total) fixes" : "\(skipped) of \(total) fixes"
        let last = calendar.text(heldThrough)
        return "\(which) of the capture skipped: they are at or before \(last), the last fix \(statePath) holds, "
            + "so their events are in it already (this capture was replayed into it before?); "
            + "replay into another --state to see them again"
    }

    /// What the drain left: kept in a state file the user named for the next run, or lost with the
    /// temporary one, which is a failure of the replay (exit 1), not a warning.
    /// A stop signal that cut the wait for deliveries short ends the replay with 128 plus its number,
    /// after saying what was not delivered and where it is kept.
    private func reportUndelivered(_ targets: [String], store: StateStore, kept statePath: String?) throws {
        if let signal = StopSignals.raisedSignal {
            let undelivered = try targets.compactMap { target -> (target: String, events: Int)? in
                let pending = try store.counters(target: target).pending
                return pending > 0 ? (target, pending) : nil
            }
            guard !undelivered.isEmpty else { return }
            throw StoppedBySignal(signal: signal, undelivered: undelivered, statePath: statePath)
        }
        for target in targets {
            let pending = try store.counters(target: target).pending
            guard pending > 0 else { continue }
            if let statePath {
                OutputWriter.standardError.write(
                    line:
                        "gpsfence: \(target): \(pending) events remain queued in \(statePath); the next run or replay with this --state delivers them"
                )
            } else {
                throw RuntimeFailure.undelivered(target: target, .events(pending), within: drainTimeout)
            }
        }
    }
}

extension StateStore {
    /// Opens the state file of a command; a file that cannot be opened is bad input (exit 2: its
    /// `StoreError` is of the opening stage).
    static func open(_ path: String?) throws(StoreError) -> StateStore? {
        guard let path else { return nil }
        return try StateStore(path: path)
    }
}
