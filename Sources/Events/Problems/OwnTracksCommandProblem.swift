import Fences

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
