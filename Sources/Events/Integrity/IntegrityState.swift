/// How far the position can be trusted (docs/running.md, "Trust in the fix").
public enum IntegrityState: String, Sendable, Equatable, CaseIterable, BitwiseCopyable {
    /// Nothing looks wrong.
    case ok
    /// Something is off (a weak or unusual sky, a clock or position step, a fault the receiver
    /// reports): positions are still used, the state only annotates them.
    case degraded
    /// A jammer is likely near: signals fell on every satellite together, and then satellites were
    /// lost or the fall went on.
    case jammed
    /// A spoofer is likely feeding the receiver: positions are not believed.
    case spoofed

    /// Whether positions are not believed for fence decisions while in this state.
    public var isUnreliable: Bool {
        switch self {
        case .ok, .degraded: false
        case .jammed, .spoofed: true
        }
    }
}
