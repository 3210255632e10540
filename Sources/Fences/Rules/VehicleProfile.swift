/// The vehicle's own measures, from the command line (`--vehicle-height`, `--vehicle-width`,
/// `--vehicle-length`, `--vehicle-weight`, `--vehicle-axle-load`, `--hgv`), that the restrictions
/// of fences are compared with; nil: not given, so nothing is flagged against it.
public struct VehicleProfile: Sendable, Equatable {
    /// Metres.
    public var height: Double?
    public var width: Double?
    public var length: Double?
    /// Kilograms: the whole vehicle as loaded, and its heaviest axle.
    public var weight: Double?
    public var axleLoad: Double?
    /// A heavy goods vehicle: `hgv=no` fences are closed to it, `maxspeed:hgv` is its limit.
    public var hgv = false

    public init(
        height: Double? = nil, width: Double? = nil, length: Double? = nil, weight: Double? = nil,
        axleLoad: Double? = nil, hgv: Bool = false
    ) {
        self.height = height
        self.width = width
        self.length = length
        self.weight = weight
        self.axleLoad = axleLoad
        self.hgv = hgv
    }

    public var isEmpty: Bool { self == VehicleProfile() }
}
