/// Why the integrity monitor says what it says; each is one piece of evidence (docs/events.md,
/// `integrity`).
public enum IntegrityReason: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// C/N0 fell on nearly every satellite at once.
    case cn0Drop = "cn0_drop"
    /// Most of the satellites the receiver tracked are gone.
    case satellitesLost = "satellites_lost"
    /// Every satellite arrives at the same strong C/N0, as from one transmitter.
    case uniformCN0 = "uniform_cn0"
    /// The receiver's clock stepped against the system's monotonic clock or its own cadence.
    case clockJump = "clock_jump"
    /// The position stepped farther than the speed allows.
    case positionJump = "position_jump"
    /// The altitude stepped farther than any climb.
    case altitudeJump = "altitude_jump"
    /// The receiver's own fault detection (GBS) names a failed satellite.
    case raimFault = "raim_fault"
    /// The receiver says itself that it is jammed or spoofed.
    case receiverFlag = "receiver_flag"
    /// The satellites' geometry is poor (a PDOP or HDOP above 10).
    case highDOP = "high_dop"
    /// The receiver's error ellipse (GST) is larger than 100 m.
    case largeError = "large_error"

    var bit: UInt16 {
        switch self {
        case .cn0Drop: 1 << 0
        case .satellitesLost: 1 << 1
        case .uniformCN0: 1 << 2
        case .clockJump: 1 << 3
        case .positionJump: 1 << 4
        case .altitudeJump: 1 << 5
        case .raimFault: 1 << 6
        case .receiverFlag: 1 << 7
        case .highDOP: 1 << 8
        case .largeError: 1 << 9
        }
    }
}

/// A set of reasons, listed in `IntegrityReason`'s order.
public struct IntegrityReasons: Sendable, Equatable, BitwiseCopyable, Sequence, ExpressibleByArrayLiteral {
    private var bits: UInt16

    public init() { bits = 0 }

    public init(_ reasons: [IntegrityReason]) {
        bits = 0
        for reason in reasons { insert(reason) }
    }

    public init(arrayLiteral reasons: IntegrityReason...) { self.init(reasons) }

    public mutating func insert(_ reason: IntegrityReason) { bits |= reason.bit }
    public func contains(_ reason: IntegrityReason) -> Bool { bits & reason.bit != 0 }
    public var isEmpty: Bool { bits == 0 }

    public func makeIterator() -> IndexingIterator<[IntegrityReason]> {
        IntegrityReason.allCases.filter(contains).makeIterator()
    }

    /// The reasons' names, comma-separated (`cn0_drop,satellites_lost`).
    public var names: String { map(\.rawValue).joined(separator: ",") }
}
