import NMEA

/// Judges, cycle by cycle, whether the receiver's positions can be trusted (docs/running.md,
/// "Trust in the fix"): `ok`, `degraded`, `jammed` or `spoofed`, with the reasons.
///
/// - `jammed`: C/N0 fell on nearly every satellite and then most satellites were lost, or it fell
///   on every satellite together, the strongest too, a little further each second for three
///   seconds (a jammer approaching, before it takes the satellites), or the receiver says it is
///   jammed (critical), or a receiver at rest lost its whole sky at once (no tunnel comes to a
///   vehicle that stands still: a jammer switched on beside it, or its antenna cut off); it lasts
///   while the sky stays weakened against its baseline. The order counts: a jammer's noise takes
///   the decibels first and the satellites after, while a sky lost to an underpass or a deep
///   street comes back, or changes inside it, weakened and uneven, which after the loss can look
///   like a fall.
/// - `spoofed`: every satellite at one strong C/N0 together with a step of the clock, the position
///   or the altitude, or the receiver says it is spoofed (affirmed); it lasts while the C/N0
///   stays flat.
/// - `degraded`: any one piece of evidence, for `hold` seconds after it was last seen.
///
/// The monitor's own clock advances with the receiver's, by at most 5 s a cycle and never back:
/// a spoofer's clock step cannot cut a state short. A cycle without a fix, without a satellite
/// listing and without the receiver's own flags says nothing, and changes nothing; a source that
/// never says anything of its sky (no GSV, GSA, GST or GBS, no SKY or GST from gpsd, no flags: a
/// receiver sending GGA and RMC alone) is not judged at all: its fixes alone could only ever show
/// steps, which the glitch filter handles.
/// Pure: no I/O.
public struct IntegrityMonitor: Sendable {
    /// Seconds a piece of evidence counts after it was last seen.
    public static let hold = 10.0
    /// Seconds a step (clock, position, altitude) counts as a spoofer's takeover beside flat C/N0.
    public static let stepHold = 60.0
    /// Seconds between a C/N0 drop and the satellites' loss that still make one jam.
    public static let jamWindow = 20.0
    /// A PDOP or HDOP above this is `high_dop`; a GST semi-major axis above this (m) `large_error`.
    public static let highDOP = 10.0
    public static let largeError = 100.0

    public private(set) var state = IntegrityState.ok
    public private(set) var reasons = IntegrityReasons()
    /// When `state` began, by the receiver's clock; nil until the first change.
    public private(set) var since: UTCTime?

    private var signals = SignalWatch()
    private var clock = ClockWatch()
    private var steps = StepWatch()
    private var rest = RestWatch()
    private var seconds = 0.0
    private var lastTime: Int64?
    /// The monitor's clock when each reason was last seen, by `IntegrityReason.allCases` order.
    private var lastSeen = [Double?](repeating: nil, count: IntegrityReason.allCases.count)
    private var lastWeakened: Double?
    private var lastSteadyFall: Double?
    /// Whether the satellites' present loss (seen without a break longer than `hold`) began
    /// within `jamWindow` of a C/N0 drop, or with one.
    private var lossFollowedDrop = false
    /// When the satellites' present loss began, if the receiver was at rest then.
    private var restingLossBegan: Double?
    /// Whether the satellites' present loss took the whole sky at once while at rest.
    private var lossAtRest = false
    private var lastJamFlag: Double?
    private var lastSpoofFlag: Double?
    /// The source has said something of its sky: from then on its cycles are judged.
    private var hasSky = false

    public init() {}

    /// Reads one cycle; returns the new judgement when the state changed.
    public mutating func observe(_ cycle: IntegrityCycle) -> GeofenceEvent.Integrity? {
        let sky = cycle.sky
        hasSky =
            hasSky || sky.listed || sky.pdop != nil || sky.ellipse != nil || sky.hasRAIM
            || cycle.flags != .unknown
        guard hasSky else { return nil }
        let time = cycle.time.millisecondsSinceEpoch
        if let lastTime { seconds += min(5, max(0, Double(time - lastTime) / 1000)) }
        lastTime = time
        if clock.observe(time: time, monotonic: cycle.monotonic) { see(.clockJump) }
        if let fix = cycle.fix {
            let (position, altitude) = steps.observe(fix, time: time)
            if position { see(.positionJump) }
            if altitude { see(.altitudeJump) }
            if let hdop = fix.hdop, hdop > Self.highDOP { see(.highDOP) }
        }
        // Asked before this cycle's fix counts: the fix that comes with the sky's loss may be the
        // first one that moved.
        let atRest = rest.isAtRest(at: time)
        if let fix = cycle.fix { rest.observe(fix, time: time) }
        if let pdop = sky.pdop, pdop > Self.highDOP { see(.highDOP) }
        if let ellipse = sky.ellipse, ellipse.semiMajor > Self.largeError { see(.largeError) }
        if sky.raimFailedSatellite != nil { see(.raimFault) }
        readFlags(cycle.flags)
        if sky.listed {
            let evidence = signals.observe(sky, at: seconds, holding: state == .jammed || recent(.cn0Drop))
            if evidence.cn0Drop || evidence.steadyFall { see(.cn0Drop) }
            if evidence.steadyFall { lastSteadyFall = seconds }
            if evidence.satellitesLost {
                if !within(lastSeen[index(.satellitesLost)], Self.hold) {
                    lossFollowedDrop = within(lastSeen[index(.cn0Drop)], Self.jamWindow)
                    restingLossBegan = atRest ? seconds : nil
                    lossAtRest = false
                }
                if evidence.goneAtOnce, let began = restingLossBegan, seconds - began <= SignalWatch.atOnce {
                    lossAtRest = true
                }
                see(.satellitesLost)
            }
            if evidence.uniform { see(.uniformCN0) }
            if evidence.weakened { lastWeakened = seconds }
        }
        guard cycle.fix != nil || sky.listed || cycle.flags != .unknown else { return nil }
        return judge(at: cycle.time)
    }

    private mutating func readFlags(_ flags: ReceiverIntegrityFlags) {
        switch flags.jamming {
        case .critical:
            lastJamFlag = seconds
            see(.receiverFlag)
        case .warning: see(.receiverFlag)
        case .unknown, .none: break
        }
        switch flags.spoofing {
        case .affirmed:
            lastSpoofFlag = seconds
            see(.receiverFlag)
        case .indicated: see(.receiverFlag)
        case .unknown, .none: break
        }
    }

    private mutating func judge(at time: UTCTime) -> GeofenceEvent.Integrity? {
        var active = IntegrityReasons()
        for (index, reason) in IntegrityReason.allCases.enumerated() {
            guard let seen = lastSeen[index] else { continue }
            let hold = Self.isStep(reason) ? Self.stepHold : Self.hold
            if seconds - seen <= hold { active.insert(reason) }
        }
        let next = verdict(active)
        reasons = active
        guard next != state else { return nil }
        state = next
        since = time
        return GeofenceEvent.Integrity(state: next, reasons: active, since: time)
    }

    private func verdict(_ active: IntegrityReasons) -> IntegrityState {
        let stepped = active.contains(.clockJump) || active.contains(.positionJump) || active.contains(.altitudeJump)
        let flat = active.contains(.uniformCN0)
        if within(lastSpoofFlag, Self.hold) || (flat && stepped) || (state == .spoofed && flat) { return .spoofed }
        let jam =
            (active.contains(.satellitesLost) && (lossFollowedDrop || lossAtRest)) || within(lastSteadyFall, Self.hold)
        let jamGoesOn = state == .jammed && within(lastWeakened, Self.hold)
        if within(lastJamFlag, Self.hold) || jam || jamGoesOn { return .jammed }
        return active.isEmpty ? .ok : .degraded
    }

    private mutating func see(_ reason: IntegrityReason) { lastSeen[index(reason)] = seconds }

    private func recent(_ reason: IntegrityReason) -> Bool { within(lastSeen[index(reason)], Self.jamWindow) }

    private func within(_ seen: Double?, _ hold: Double) -> Bool { seen.map { seconds - $0 <= hold } ?? false }

    private func index(_ reason: IntegrityReason) -> Int { IntegrityReason.allCases.firstIndex(of: reason) ?? 0 }

    private static func isStep(_ reason: IntegrityReason) -> Bool {
        switch reason {
        case .clockJump, .positionJump, .altitudeJump: true
        case .cn0Drop, .satellitesLost, .uniformCN0, .raimFault, .receiverFlag, .highDOP, .largeError: false
        }
    }
}
