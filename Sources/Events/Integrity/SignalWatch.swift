import NMEA

/// The satellites' signals against the healthy sky of a while ago: C/N0 falling on nearly every
/// satellite at once (`cn0_drop`), and falling so for several cycles on end (a steady fall), most
/// satellites gone (`satellites_lost`), and every satellite at one strong C/N0 (`uniform_cn0`). A satellite blocked by a building takes one satellite at a
/// time; a tunnel takes them all at once without their signals falling first; a jammer raises
/// the noise floor, which takes the same decibels from every satellite in its band, while a hand
/// or a roof over the antenna takes more from some than from others; a spoofer's one antenna
/// gives every satellite the same strength.
struct SignalWatch {
    struct Evidence {
        var cn0Drop = false
        var satellitesLost = false
        /// Most of the baseline's satellites are fallen or gone: a jam that began goes on.
        var weakened = false
        /// The whole sky's C/N0 has fallen together, and further, for `steadyCycles` cycles on end,
        /// the strongest satellites with the rest: a jammer's noise floor rising, before it takes
        /// the satellites.
        var steadyFall = false
        var uniform = false
        /// A sky of at least `steadyKept` satellites gone but for one or none within `atOnce`:
        /// a jammer switched on close by, a tunnel's mouth, or the antenna cut off.
        var goneAtOnce = false
    }

    /// dB-Hz a satellite's C/N0 must fall by to count as fallen.
    static let fall = 4
    /// The median fall, dB-Hz, of the satellites still tracked for `cn0_drop`.
    static let medianFall = 5
    /// How far apart, dB-Hz, the middle half of the satellites' falls may lie for one noise floor
    /// to explain them (their interquartile range).
    static let fallSpread = 5
    /// Seconds the baseline lags behind the present, so that an onset is measured from before it.
    static let baselineLag = 10.0
    /// Seconds after which a frozen baseline is taken as the new normal after all.
    static let baselineLongest = 300.0
    /// Cycles of flat C/N0 before `uniform_cn0`.
    static let uniformCycles = 3
    /// The spread, dB-Hz, within which every satellite's C/N0 counts as the same.
    static let uniformSpread = 4
    /// Satellites a sky must have tracked to be judged at all.
    static let fewest = 5
    /// Satellites still tracked, all fallen together, that tell a jammer switched on at once.
    static let fewestKept = 3
    /// dB-Hz by which a lost satellite may have been stronger than one kept, for the loss to go
    /// by strength (the noise of two readings).
    static let strengthOrderSlack = 4
    /// dB-Hz below the median fall that no satellite kept may lie, for one noise floor to explain
    /// the falls: a sky that some satellites keep unweakened (the mouth of a tunnel, a deep street)
    /// is no jammer's, however the middle half fell.
    static let coherence = 8
    /// Cycles on end of a steady fall before it is told, each with at least `steadyKept`
    /// satellites still tracked: the median of fewer falls is the noise's.
    static let steadyCycles = 3
    static let steadyKept = 6
    /// The median fall, dB-Hz, of the steady fall's last cycle, and how much it grew over its
    /// cycles: a jammer approaching lowers every satellite a little more each second.
    static let steadyFall = 4
    static let steadyGrowth = 2
    /// The median fall, dB-Hz, of the baseline's strongest third still tracked (the lower one of
    /// an even count): the satellites high in the sky, which a street or a building leaves alone
    /// and a jammer does not.
    static let strongestFall = 3
    /// dB-Hz the steady fall's median may go back between two cycles (the noise of a median).
    static let steadySlack = 1
    /// Seconds within which a whole sky must go to have gone at once (a jammer switched on may
    /// leave the strongest few a second longer).
    static let atOnce = 2.0

    /// Recent skies, about a second apart, newest last.
    private var recent: [(seconds: Double, sky: EpochSky)] = []
    private var baseline: (seconds: Double, sky: EpochSky)?
    private var uniformRun = 0
    /// The median falls of the latest cycles on end whose satellites fell together, oldest first.
    private var fallRun: [Int] = []

    init() {
        recent.reserveCapacity(Self.history)
        fallRun.reserveCapacity(Self.steadyCycles)
    }

    static let history = 24

    /// Judges a listed sky at `seconds` (the monitor's clock). `holding`: a jam is suspected, so
    /// the baseline stays where it was.
    mutating func observe(_ sky: EpochSky, at seconds: Double, holding: Bool) -> Evidence {
        var evidence = Evidence()
        evidence.uniform = judgeUniform(sky)
        if let baseline {
            compare(sky, with: baseline.sky, into: &evidence)
        } else {
            fallRun.removeAll(keepingCapacity: true)
        }
        if let before = recent.first(where: { seconds - $0.seconds <= Self.atOnce }) {
            evidence.goneAtOnce = before.sky.tracked >= Self.steadyKept && sky.tracked <= 1
        }
        remember(sky, at: seconds)
        let frozenTooLong = baseline.map { seconds - $0.seconds > Self.baselineLongest } ?? true
        if !holding || frozenTooLong, let candidate = baselineCandidate(at: seconds) {
            baseline = candidate
        }
        return evidence
    }

    private mutating func judgeUniform(_ sky: EpochSky) -> Bool {
        var lowest = UInt8.max
        var highest = UInt8.min
        var tracked = 0
        for index in 0..<sky.count {
            guard let cn0 = sky.signal(index).cn0, cn0 > 0 else { continue }
            tracked += 1
            lowest = min(lowest, cn0)
            highest = max(highest, cn0)
        }
        let flat = tracked >= 6 && lowest >= 40 && Int(highest) - Int(lowest) <= Self.uniformSpread
        uniformRun = flat ? uniformRun + 1 : 0
        return uniformRun >= Self.uniformCycles
    }

    private mutating func compare(_ sky: EpochSky, with reference: EpochSky, into evidence: inout Evidence) {
        var gone = 0
        var fallen = 0
        // Each of the baseline's satellites: its C/N0 then, and its fall since (nil: gone).
        var satellites: [(was: Int, fall: Int?)] = []
        satellites.reserveCapacity(reference.count)
        // The baseline's C/N0 of the strongest satellite lost and of the weakest kept.
        var strongestGone = Int.min
        var weakestKept = Int.max
        for index in 0..<reference.count {
            let before = reference.signal(index)
            guard let was = before.cn0, was > 0 else { continue }
            guard let now = sky.cn0(of: before), now > 0 else {
                gone += 1
                strongestGone = max(strongestGone, Int(was))
                satellites.append((Int(was), nil))
                continue
            }
            weakestKept = min(weakestKept, Int(was))
            let fall = Int(was) - Int(now)
            satellites.append((Int(was), fall))
            if fall >= Self.fall { fallen += 1 }
        }
        let referenceTracked = satellites.count
        guard referenceTracked >= Self.fewest else {
            fallRun.removeAll(keepingCapacity: true)
            return
        }
        let falls = satellites.compactMap(\.fall).sorted()
        let medianFall = falls.isEmpty ? 0 : falls[falls.count / 2]
        let share = Double(fallen + gone) / Double(referenceTracked)
        let spread = falls.isEmpty ? 0 : falls[falls.count * 3 / 4] - falls[falls.count / 4]
        let coherent = falls.first.map { $0 >= medianFall - Self.coherence } ?? true
        // Measured while most satellites are still tracked: the fall comes before the loss. A
        // jammer switched on at once takes the weakest satellites in the first second: then the
        // few kept must all have fallen together, and be the strongest of the baseline (a tunnel
        // or a building takes satellites by where they are, not by their strength).
        let fellTogether = medianFall >= Self.medianFall && share >= 0.8 && spread <= Self.fallSpread && coherent
        let mostKept = fallen >= 4 && gone * 2 <= referenceTracked
        let weakestWent =
            falls.count >= Self.fewestKept && fallen == falls.count
            && strongestGone <= weakestKept + Self.strengthOrderSlack
        evidence.cn0Drop = fellTogether && (mostKept || weakestWent)
        let trackedNow = sky.tracked
        evidence.satellitesLost = trackedNow * 2 <= referenceTracked && referenceTracked - trackedNow >= 3
        evidence.weakened = share >= 0.6

        // A building may take one strong satellite out of the strength order beside a jammer.
        let together =
            falls.count >= Self.steadyKept && spread <= Self.fallSpread
            && satellites.count(where: { $0.fall == nil && $0.was > weakestKept + Self.strengthOrderSlack }) <= 1
        guard together else {
            fallRun.removeAll(keepingCapacity: true)
            return
        }
        if fallRun.count == Self.steadyCycles { fallRun.removeFirst() }
        fallRun.append(medianFall)
        let strongest = satellites.sorted { $0.was > $1.was }.prefix(max(1, referenceTracked / 3)).compactMap(\.fall)
            .sorted()
        let strongestFell = strongest.isEmpty ? false : strongest[(strongest.count - 1) / 2] >= Self.strongestFall
        let rising = zip(fallRun, fallRun.dropFirst()).allSatisfy { $1 >= $0 - Self.steadySlack }
        evidence.steadyFall =
            fallRun.count == Self.steadyCycles && rising && medianFall >= Self.steadyFall
            && medianFall - fallRun[0] >= Self.steadyGrowth && share >= 0.8 && strongestFell && coherent
    }

    private mutating func remember(_ sky: EpochSky, at seconds: Double) {
        if let last = recent.last, seconds - last.seconds < 1 { return }
        if recent.count == Self.history { recent.removeFirst() }
        recent.append((seconds, sky))
    }

    /// The newest remembered sky at least `baselineLag` old, with enough satellites, and not
    /// flat (a spoofer's sky is no measure of a healthy one).
    private func baselineCandidate(at seconds: Double) -> (seconds: Double, sky: EpochSky)? {
        recent.last {
            seconds - $0.seconds >= Self.baselineLag && $0.sky.tracked >= Self.fewest && !Self.isFlat($0.sky)
        }
    }

    /// Every tracked satellite within `uniformSpread` of the others.
    static func isFlat(_ sky: EpochSky) -> Bool {
        var lowest = UInt8.max
        var highest = UInt8.min
        for index in 0..<sky.count {
            guard let cn0 = sky.signal(index).cn0, cn0 > 0 else { continue }
            lowest = min(lowest, cn0)
            highest = max(highest, cn0)
        }
        return lowest <= highest && Int(highest) - Int(lowest) <= uniformSpread
    }
}
