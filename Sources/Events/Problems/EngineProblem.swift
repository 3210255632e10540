/// A problem of the engine's own loop.
public enum EngineProblem: Sendable, Equatable {
    /// The reader filled the ring faster than the engine took fixes: `dropped` were lost.
    case fellBehind(dropped: Int, ringCapacity: Int)
    /// The state file cannot be synced to storage: the events that wait for storage wait on.
    case notSynced(CaughtError)

    public var text: String {
        switch self {
        case .fellBehind(let dropped, let capacity):
            "the engine fell behind: \(dropped) fixes dropped (ring of \(capacity))"
        case .notSynced(let error):
            "the state file cannot be synced to storage, events wait for it: \(error)"
        }
    }
}
