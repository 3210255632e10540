import Events
import Fences

/// What a source of fence sets hands the engine: a new set, loaded and validated off the engine
/// thread, or a refusal.
package enum FenceFeedOutcome: Sendable {
    /// A new set, matched against the set the engine had when it was loaded; `keep`: the bytes to
    /// keep in the state file as the last good set of this source, once it is swapped in.
    case loaded(FenceSetMatch, keep: [UInt8]?)
    /// Refused: the `error` event names the source, the feature and what is wrong, and says that
    /// the fences loaded stay.
    case refused(FenceFeedProblem)
}

/// A source of whole fence sets for a run (docs/running.md, "Changing the fences while it runs"):
/// the watched fence file, the broker. It works on a thread of its own; the engine takes what it
/// found at each round and swaps (`EngineLoop.replaceFences`).
package protocol FenceFeed: AnyObject, Sendable {
    /// Where the sets come from, as the `registered` event says it (no password).
    var origin: String { get }
    func start()
    func stop()
    /// SIGHUP: look again now, changed or not.
    func requestReload()
    /// The engine swapped sets: later sets are matched against `set`.
    func noteCurrent(_ set: FenceSet)
    /// What was found since the last call, oldest first.
    func take() -> [FenceFeedOutcome]
}
