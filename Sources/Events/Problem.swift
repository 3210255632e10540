import Fences
import Platform
import Presentation

/// A problem said as an `error` event, as a value: what happened and to what. Its words are
/// rendered only at the edge (`text`: the event's `message`, the console line, a hook's input), so
/// no code recognises a problem by matching its message.
public enum Problem: Sendable, Equatable {
    /// A hook failed, or its failures were summed up (`ExecHookSink`).
    case hook(HookFailure)
    /// A fix source cannot be used yet, or says something of its data.
    case source(SourceProblem)
    /// `--say`, `--notify` or `--bell` cannot do its work.
    case alert(AlertProblem)
    /// A webhook, the MQTT events or the track sync cannot reach their target, or their state.
    case delivery(DeliveryProblem)
    /// An MQTT connection, or what arrived on it.
    case broker(BrokerProblem)
    /// A fence set offered while the run runs (a reload, the broker's) was refused.
    case fenceFeed(FenceFeedProblem)
    /// The anchor's circle or the OwnTracks regions over the fence file.
    case fenceLayer(FenceLayerProblem)
    /// The engine's own loop.
    case engine(EngineProblem)
    /// An `error` event read back from the state file: its `message` is all that is kept of it.
    case readBack(String)

    /// The message people and programs read.
    public var text: String {
        switch self {
        case .hook(let failure): failure.text
        case .source(let problem): problem.text
        case .alert(let problem): problem.text
        case .delivery(let problem): problem.text
        case .broker(let problem): problem.text
        case .fenceFeed(let problem): problem.text
        case .fenceLayer(let problem): problem.text
        case .engine(let problem): problem.text
        case .readBack(let message): message
        }
    }
}

/// A failure of one `--exec` hook (docs/running.md, "Hooks").
public struct HookFailure: Sendable, Equatable {
    /// Which hook: the sink that runs it and its place in that sink's list, so that the `error`
    /// event of a failure is never delivered back to the hook it is about.
    public struct Origin: Sendable, Equatable, Hashable {
        /// The sink's own number, unique in the process.
        public let sink: Int
        public let hook: Int

        public init(sink: Int, hook: Int) {
            self.sink = sink
            self.hook = hook
        }
    }

    public indirect enum Cause: Sendable, Equatable {
        /// The program could not be started: the spawn's error.
        case couldNotStart(SpawnError)
        /// It exited with a status other than 0 while running for an event.
        case exited(status: Int32, eventID: String)
        /// A signal killed it while it ran for an event.
        case killedBySignal(Int32, eventID: String)
        /// It ran longer than its time limit (seconds) and was killed.
        case timedOut(limit: Double, eventID: String, whileStopping: Bool)
        /// It still ran `limit` seconds after the stop began and was killed.
        case killedAtStop(limit: Double, eventID: String)
        /// `waiting` events were already queued: this one was not run.
        case dropped(waiting: Int, kind: GeofenceEvent.Kind, eventID: String)
        /// Queued events not run because the process stops.
        case notRunAtStop(count: Int)
        /// `count` more failures held back over `interval` seconds; `last` is the last of them.
        case repeated(count: Int, interval: Double, last: Cause)
    }

    public let origin: Origin
    /// The program as it was resolved (a path).
    public let program: String
    public let cause: Cause

    public init(origin: Origin, program: String, cause: Cause) {
        self.origin = origin
        self.program = program
        self.cause = cause
    }

    public var text: String { Self.text(program, cause) }

    private static func text(_ program: String, _ cause: Cause) -> String {
        switch cause {
        case .couldNotStart(let error):
            return "hook \(program) could not start: \(error)"
        case .exited(let status, let eventID):
            return "hook \(program) exited with status \(status) for event \(eventID)"
        case .killedBySignal(let signal, let eventID):
            return "hook \(program) was killed by signal \(signal) for event \(eventID)"
        case .timedOut(let limit, let eventID, let whileStopping):
            return "hook \(program) took longer than \(HumanText.duration(limit)) for event \(eventID) and was killed"
                + (whileStopping ? " (gpsfence is stopping)" : "")
        case .killedAtStop(let limit, let eventID):
            return "hook \(program) was still running for event \(eventID) \(HumanText.duration(limit)) "
                + "after gpsfence began to stop, and was killed"
        case .dropped(let waiting, let kind, let eventID):
            return "hook \(program): \(waiting) events already waiting, \(kind.rawValue) event \(eventID) dropped"
        case .notRunAtStop(let count):
            return "hook \(program): \(count) queued event\(count == 1 ? "" : "s") not run: gpsfence is stopping"
        case .repeated(let count, let interval, let last):
            return "hook \(program) failed \(count) more time\(count == 1 ? "" : "s") "
                + "(at most one report per \(HumanText.duration(interval))); the last: \(text(program, last))"
        }
    }
}
