import NMEA

/// The satellites' signals against the healthy sky of a while ago: C/N0 falling on nearly every
/// satellite at once (`cn0_drop`), most satellites gone (`satellites_lost`), and every satellite
/// at one strong C/N0 (`uniform_cn0`). A satellite blocked by a building takes one satellite at a
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
        var uniform = false
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

    /// Recent skies, about a second apart, newest last.
    private var recent: [(seconds: Double, sky: EpochSky)] = []
    private var baseline: (seconds: Double, sky: EpochSky)?
    private var uniformRun = 0

    init() { recent.reserveCapacity(Self.history) }

    static let history = 24

    /// Judges a listed sky at `seconds` (the monitor's clock). `holding`: a jam is suspected, so
    /// the baseline stays where it was.
    mutating func observe(_ sky: EpochSky, at seconds: Double, holding: Bool) -> Evidence {
        var evidence = Evidence()
        evidence.uniform = judgeUniform(sky)
        if let baseline { compare(sky, with: baseline.sky, into: &evidence) }
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

    private func compare(_ sky: EpochSky, with reference: EpochSky, into evidence: inout Evidence) {
        var referenceTracked = 0
        var gone = 0
        var fallen = 0
        var falls: [Int] = []
        falls.reserveCapacity(reference.count)
        // The baseline's C/N0 of the strongest satellite lost and of the weakest kept.
        var strongestGone = Int.min
        var weakestKept = Int.max
        for index in 0..<reference.count {
            let before = reference.signal(index)
            guard let was = before.cn0, was > 0 else { continue }
            referenceTracked += 1
            guard let now = sky.cn0(of: before), now > 0 else {
                gone += 1
                strongestGone = max(strongestGone, Int(was))
                continue
            }
            weakestKept = min(weakestKept, Int(was))
            let fall = Int(was) - Int(now)
            falls.append(fall)
            if fall >= Self.fall { fallen += 1 }
        }
        guard referenceTracked >= Self.fewest else { return }
        falls.sort()
        let medianFall = falls.isEmpty ? 0 : falls[falls.count / 2]
        let share = Double(fallen + gone) / Double(referenceTracked)
        let spread = falls.isEmpty ? 0 : falls[falls.count * 3 / 4] - falls[falls.count / 4]
        // Measured while most satellites are still tracked: the fall comes before the loss. A
        // jammer switched on at once takes the weakest satellites in the first second: then the
        // few kept must all have fallen together, and be the strongest of the baseline (a tunnel
        // or a building takes satellites by where they are, not by their strength).
        let fellTogether = medianFall >= Self.medianFall && share >= 0.8 && spread <= Self.fallSpread
        let mostKept = fallen >= 4 && gone * 2 <= referenceTracked
        let weakestWent =
            falls.count >= Self.fewestKept && fallen == falls.count
            && strongestGone <= weakestKept + Self.strengthOrderSlack
        evidence.cn0Drop = fellTogether && (mostKept || weakestWent)
        let trackedNow = sky.tracked
        evidence.satellitesLost = trackedNow * 2 <= referenceTracked && referenceTracked - trackedNow >= 3
        evidence.weakened = share >= 0.6
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
