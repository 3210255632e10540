import Fences
import JSONOutput

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

/// Why a message on the OwnTracks command topic is no command.
public enum OwnTracksCommandProblem: Sendable, Equatable {
    /// Not a JSON object with `"_type":"cmd"` gpsfence can read.
    case notACommand
    /// A JSON object whose `_type` is another.
    case notOfTypeCmd
    /// `setWaypoints` without its list.
    case noWaypoints

    public var text: String {
        switch self {
        case .notACommand: #"not an OwnTracks command (a JSON object with "_type":"cmd")"#
        case .notOfTypeCmd: #""_type" is not "cmd""#
        case .noWaypoints: #"setWaypoints without "waypoints""#
        }
    }
}

/// Why one waypoint of a `setWaypoints` command was left out.
public enum WaypointProblem: Error, Sendable, Equatable {
    /// Neither `rid` nor `tst` names the region.
    case noID
    /// The region (its id) has no positive radius.
    case radiusNotPositive(region: String)

    public var text: String {
        switch self {
        case .noID: #"no "rid" (nor "tst") to name it"#
        case .radiusNotPositive(let region):
            #""rad" of region \#(FenceID.string(region).json) must be a positive number of metres"#
        }
    }
}

/// A layer circle left out of the set the engine runs on, with why.
public struct LayerCircleRefusal: Sendable, Equatable {
    public let layer: LayerCircle.Layer
    public let id: String
    public let cause: FenceLayers.LeftOut

    public init(layer: LayerCircle.Layer, id: String, cause: FenceLayers.LeftOut) {
        self.layer = layer
        self.id = id
        self.cause = cause
    }

    public var text: String {
        switch cause {
        case .idTaken:
            "\(layer.rawValue) circle left out: its id \(FenceID.string(id).json) is already used by another fence"
        case .refused(let problem): "\(layer.rawValue) circle left out: \(problem.text)"
        }
    }

    /// `FenceProblem` has no equality of its own (its shape problems carry positions as tuples):
    /// two refusals of the same circle for a fence problem are the same when that problem reads
    /// the same, which is what telling a new refusal from one already said needs.
    public static func == (left: Self, right: Self) -> Bool {
        guard left.layer == right.layer, left.id == right.id else { return false }
        switch (left.cause, right.cause) {
        case (.idTaken, .idTaken): return true
        case (.refused(let one), .refused(let other)): return one.text == other.text
        case (.idTaken, .refused), (.refused, .idTaken): return false
        }
    }
}
