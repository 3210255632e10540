import Fences

/// A problem of the fence layers over the fence file: the anchor's circle and the OwnTracks regions
/// (docs/mqtt.md, "OwnTracks regions").
public enum FenceLayerProblem: Sendable, Equatable {
    /// A message on the OwnTracks command topic that is no `setWaypoints` command gpsfence can read.
    case commandIgnored(topic: String, OwnTracksCommandProblem)
    /// A waypoint of a `setWaypoints` command (its place in the list) that was left out.
    case waypointLeftOut(index: Int, WaypointProblem)
    /// A layer circle the set was built without.
    case circleLeftOut(LayerCircleRefusal)

    public var text: String {
        switch self {
        case .commandIgnored(let topic, let problem): "\(topic): ignored: \(problem.text)"
        case .waypointLeftOut(let index, let problem):
            "OwnTracks setWaypoints: waypoint \(index): \(problem.text) (left out)"
        case .circleLeftOut(let refusal): refusal.text
        }
    }
}
