/// What people read of an integrity state and its reasons (console, speech, notifications,
/// `status`).
extension IntegrityState {
    /// `GPS position unreliable: jamming suspected`
    public var sentence: String {
        switch self {
        case .ok: "GPS position trusted again"
        case .degraded: "GPS signal degraded, positions still used"
        case .jammed: "GPS position unreliable: jamming suspected"
        case .spoofed: "GPS position unreliable: spoofing suspected"
        }
    }
}

extension IntegrityReason {
    /// `signals fell on every satellite`
    public var words: String {
        switch self {
        case .cn0Drop: "signals fell on every satellite"
        case .satellitesLost: "satellites lost"
        case .uniformCN0: "every satellite equally strong"
        case .clockJump: "the receiver's clock jumped"
        case .positionJump: "the position jumped"
        case .altitudeJump: "the altitude jumped"
        case .raimFault: "the receiver found a faulty satellite"
        case .receiverFlag: "the receiver reports interference"
        case .highDOP: "poor satellite geometry"
        case .largeError: "large position error"
        }
    }
}

extension IntegrityReasons {
    /// The reasons in words, comma-separated; empty for none.
    public var words: String { map(\.words).joined(separator: ", ") }
}
