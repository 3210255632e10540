import Events
import NMEA
import Receivers

/// Everything the engine consumes, from any source: a serial receiver, a capture file, gpsd.
/// Sources push these into the engine's ring; nothing else crosses from a reader thread to the
/// engine thread.
public enum EngineInput: Sendable {
    /// A fix, with what the receiver said of its sky in that cycle (empty from a source that
    /// says nothing of it) for the integrity monitor.
    case fix(Fix, sky: EpochSky = .empty)
    /// A receiver cycle without a usable fix: the receiver's clock still runs (docs/events.md fix_lost).
    case silentCycle(EpochTime, sky: EpochSky = .empty)
    /// The device produced valid data (docs/events.md `device_connected`); `detail` says at what rate.
    case connected(device: String, detail: String?)
    /// The connected device went away (docs/events.md `device_lost`); the source is already retrying.
    case lost(device: String, reason: String)
    /// The source cannot be used yet (absent, permission denied, refused): an `error` event, said
    /// once per distinct problem. The source keeps retrying.
    case problem(SourceProblem)
    /// A finite source has nothing more (the last capture ended, or the source was stopped).
    case endOfInput
}

/// A producer of `EngineInput`, run on a reader thread of its own by `EngineLoop`.
public protocol FixSource: AnyObject, Sendable {
    /// A file can wait for room in the ring; a live receiver cannot (it would lose bytes in the
    /// kernel instead), so its inputs are dropped and counted when the engine falls behind.
    var waitsForRoom: Bool { get }
    /// Whether the source is a live receiver whose silence on the wall clock means `fix_lost`.
    var isLive: Bool { get }
    /// Where the engine says how many of a live receiver's next cycles cannot raise an event, for
    /// its reader to sleep through (`ReadSchedule`); nil for a source that does not pace itself by
    /// the receiver.
    var readCues: ReadSchedule.Cues? { get }
    /// Produces inputs until the input ends or `stop()` is called, on the calling thread.
    func run(_ emit: (EngineInput) -> Void)
    /// Asks `run` to return soon; safe from any thread.
    func stop()
}
