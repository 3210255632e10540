/// A fence set a run was offered while it runs (docs/running.md, "Changing the fences while it
/// runs") and refused: the `loaded` fences stay.
public enum FenceFeedProblem: Sendable, Equatable {
    /// The fence file changed and does not load.
    case reloadFailed(loaded: Int, CaughtError)
    /// The broker's retained fence set does not load.
    case brokerSetRefused(loaded: Int, CaughtError)
    /// The broker's retained fence set on `origin` was cleared (an empty retained message).
    case brokerSetCleared(origin: String, loaded: Int)

    public var text: String {
        switch self {
        case .reloadFailed(let loaded, let error):
            "reload failed, keeping the \(loaded) fences loaded: \(error)"
        case .brokerSetRefused(let loaded, let error):
            "fence set from the broker refused, keeping the \(loaded) fences loaded: \(error)"
        case .brokerSetCleared(let origin, let loaded):
            "the fence set on \(origin) was cleared (an empty retained message); keeping the \(loaded) fences loaded"
        }
    }
}
