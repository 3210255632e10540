/// What a receiver says itself of jamming and spoofing, where it can tell (u-blox M8 and later:
/// UBX-NAV-STATUS, UBX-MON-RF, UBX-SEC-SIG). A receiver that says nothing leaves every field
/// `unknown`; the integrity monitor then judges by the signals alone.
public struct ReceiverIntegrityFlags: Equatable, Sendable, BitwiseCopyable {
    /// UBX-NAV-STATUS `flags2.spoofDetState`, UBX-SEC-SIG `spoofingState`.
    public enum Spoofing: UInt8, Equatable, Sendable, BitwiseCopyable {
        case unknown = 0
        case none = 1
        case indicated = 2
        case affirmed = 3
    }

    /// UBX-MON-RF `flags.jammingState`, UBX-SEC-SIG `jammingState`.
    public enum Jamming: UInt8, Equatable, Sendable, BitwiseCopyable {
        case unknown = 0
        case none = 1
        case warning = 2
        case critical = 3
    }

    public var spoofing: Spoofing
    public var jamming: Jamming
    /// UBX-MON-RF `jamInd`: continuous-wave jamming, 0 (none) to 255 (strong); nil when not sent.
    public var jammingIndicator: UInt8?

    public static let unknown = ReceiverIntegrityFlags(spoofing: .unknown, jamming: .unknown, jammingIndicator: nil)

    public init(spoofing: Spoofing, jamming: Jamming, jammingIndicator: UInt8?) {
        self.spoofing = spoofing
        self.jamming = jamming
        self.jammingIndicator = jammingIndicator
    }
}
