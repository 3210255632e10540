/// The vehicle's own measures, from the command line (`--vehicle-height`), that the restrictions
/// of fences are compared with; nil: not given, so nothing is flagged against it.
public struct VehicleProfile: Sendable, Equatable {
    /// Metres.
    public var height: Double?

    public init(height: Double? = nil) {
        self.height = height
    }

    public var isEmpty: Bool { self == VehicleProfile() }
}
