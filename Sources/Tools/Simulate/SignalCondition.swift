import NMEA
import Platform

/// What the simulated receiver hears in one epoch: each satellite's C/N0, which of them it tracks
/// and uses, and what it says itself of jamming and spoofing (`Interference` makes these).
public struct SignalCondition: Sendable, Equatable {
    /// Seconds since the play started: each satellite's C/N0 wanders a little with it.
    public var elapsed: Double
    /// dB-Hz a jammer takes off every satellite.
    public var jammingLoss = 0.0
    /// A spoofer's signals: every satellite at about this C/N0.
    public var spoofedCN0: Double?
    /// The receiver has noticed the spoofer (its UBX flags say so).
    public var spoofingFlagged = false
    /// GST is written (a run rehearsing interference wants the error ellipse).
    public var writesErrorEllipse = false

    public init(elapsed: Double) { self.elapsed = elapsed }

    /// Below this a satellite is not tracked: in view, C/N0 field empty.
    public static let trackingThreshold = 25.0
    /// At or above this a tracked satellite is used in the fix.
    public static let useThreshold = 28.0
    /// Fewer used satellites than this is no fix.
    public static let satellitesForFix = 4

    /// One satellite's C/N0 (dB-Hz), nil when not tracked. An open sky's C/N0 wanders about
    /// +-1.5 dB-Hz over tens of seconds, each satellite on its own phase.
    public func carrierToNoise(prn: Int, base: Int) -> Int? {
        let phase = Double(prn) * 1.7
        let wander = 1.2 * sin(elapsed * 0.11 + phase) + 0.4 * sin(elapsed * 0.53 + 2 * phase)
        if let spoofedCN0 {
            // One transmitter: flat, strong, with only a flicker between satellites.
            return Int((spoofedCN0 + 0.3 * sin(elapsed * 0.7 + phase)).rounded())
        }
        let value = Double(base) + wander - jammingLoss
        guard value >= Self.trackingThreshold else { return nil }
        return Int(value.rounded())
    }

    /// The satellites in view with their C/N0 (nil: not tracked) and whether each is used.
    public func sky(_ satellites: [(prn: Int, elevation: Int, azimuth: Int, snr: Int)]) -> [SatelliteView] {
        satellites.map { satellite in
            let cn0 = carrierToNoise(prn: satellite.prn, base: satellite.snr)
            return SatelliteView(
                prn: satellite.prn, elevation: satellite.elevation, azimuth: satellite.azimuth, cn0: cn0,
                used: cn0.map { Double($0) >= Self.useThreshold } ?? false)
        }
    }

    /// What the receiver's own UBX messages say this epoch.
    public var receiverFlags: ReceiverIntegrityFlags {
        var flags = ReceiverIntegrityFlags(spoofing: .none, jamming: .none, jammingIndicator: nil)
        // A quiet band reads a jamming indicator of a few counts; a jammer drives it up.
        flags.jammingIndicator = UInt8(min(255, 8 + (jammingLoss * 6).rounded()))
        if jammingLoss >= 6 { flags.jamming = .warning }
        if jammingLoss >= 16 { flags.jamming = .critical }
        if spoofingFlagged { flags.spoofing = .indicated }
        return flags
    }
}

/// One satellite of a GSV sentence, and whether GSA lists it as used.
public struct SatelliteView: Sendable, Equatable {
    public var prn: Int
    public var elevation: Int
    public var azimuth: Int
    public var cn0: Int?
    public var used: Bool
}
