import Presentation

/// The ranges every number from outside (fence files, command-line options, the state file) is
/// checked against where it enters. Valid JSON and valid options can carry 1e300 or `inf`; Swift
/// traps on a Double -> Int conversion out of range, and on Int64 overflow, so a value that is not
/// refused at the door becomes a crash (SIGILL) deep inside. Past these checks, durations in
/// milliseconds stay below 2^40 and times below 2^48, far from Int64's 2^63.
public enum Limits {
    /// The longest duration any setting takes: 10^9 s, about 31.7 years.
    public static let maxSeconds = 1e9
    /// The longest distance any setting takes: half the Earth's circumference on the docs/fences.md sphere
    /// (π × 6,371,008.8 m, rounded up): a circle of this radius already covers the whole Earth.
    public static let maxMetres = (Double.pi * Geodesy.earthRadius).rounded(.up)
    /// Home Assistant discovery gives every fence a sensor up to this many fences; past it, only
    /// those marked `"homeassistant": true` (docs/mqtt.md): never thousands of entities.
    public static let homeAssistantEveryFenceUpTo = 50
    /// The most consecutive fixes `exit` can wait for (the engine counts them in a byte).
    public static let maxExitConfirm = 255
    /// The highest speed limit a fence may set, in m/s (10 km/s: faster than anything a receiver
    /// reports); `--speeding-confirm` counts in a byte like `--exit-confirm`.
    public static let maxSpeed = 1e4
    /// The heaviest weight read (tonnes): far above any vehicle, below any overflow.
    public static let maxTonnes = 1e6

    /// How a range's lower end is meant.
    public enum Lower: Sendable, Equatable {
        /// 0 is allowed.
        case zero
        /// More than 0 (0 itself is refused).
        case aboveZero
        /// At least this value.
        case atLeast(Double)
    }

    /// A number outside the range a setting takes, as a value: the setting's name (an option, a
    /// property), the value and the range. `description` is its one rendering in words:
    /// `--dwell must be 0 to 1000000000 seconds, not 1e+300`.
    public struct RangeProblem: Sendable, Equatable, CustomStringConvertible {
        public let name: String
        public let value: Amount
        public let lower: Lower
        public let max: Double
        /// The unit of the value and its bounds (nil: a count).
        public let unit: String?

        public var description: String {
            let unit = self.unit.map { " " + $0 } ?? ""
            let range: String
            switch lower {
            case .zero: range = "0 to \(number(max))\(unit)"
            case .aboveZero: range = "more than 0 and at most \(number(max))\(unit)"
            case .atLeast(let minimum): range = "\(number(minimum)) to \(number(max))\(unit)"
            }
            // A minus sign is the likely slip: the sentence leads with the rule it breaks.
            if value.isNegative {
                switch lower {
                case .zero: return "\(name) must be positive or 0 (\(range)), not \(value.text)"
                case .aboveZero: return "\(name) must be positive (\(range)), not \(value.text)"
                case .atLeast(let minimum) where minimum >= 0:
                    return "\(name) must be positive (\(range)), not \(value.text)"
                case .atLeast: break
                }
            }
            return "\(name) must be \(range), not \(value.text)"
        }
    }

    /// A value as given: a number, or a count (said whole however large).
    public enum Amount: Sendable, Equatable {
        case real(Double)
        case whole(Int)

        var isNegative: Bool {
            switch self {
            case .real(let value): value < 0
            case .whole(let value): value < 0
            }
        }

        var text: String {
            switch self {
            case .real(let value): number(value)
            case .whole(let value): String(value)
            }
        }
    }

    /// nil when `value` is a finite number in the range, else the problem naming `name`, the range
    /// and the value.
    public static func check(_ name: String, _ value: Double, _ lower: Lower, max: Double, unit: String?)
        -> RangeProblem?
    {
        let within: Bool
        switch lower {
        case .zero: within = value >= 0 && value <= max
        case .aboveZero: within = value > 0 && value <= max
        case .atLeast(let minimum): within = value >= minimum && value <= max
        }
        // `>=`/`<=` are false for NaN, and `inf` is above any max: both are refused here.
        return within ? nil : RangeProblem(name: name, value: .real(value), lower: lower, max: max, unit: unit)
    }

    /// nil when `value` is in `range`, else the problem naming `name`.
    public static func check(_ name: String, _ value: Int, _ range: ClosedRange<Int>) -> RangeProblem? {
        if range.contains(value) { return nil }
        let lower: Lower = range.lowerBound == 0 ? .zero : .atLeast(Double(range.lowerBound))
        return RangeProblem(name: name, value: .whole(value), lower: lower, max: Double(range.upperBound), unit: nil)
    }

    /// A duration setting: 0 (or more than 0) up to `maxSeconds`.
    public static func checkSeconds(_ name: String, _ value: Double, allowsZero: Bool = false) -> RangeProblem? {
        check(name, value, allowsZero ? .zero : .aboveZero, max: maxSeconds, unit: "seconds")
    }

    /// A distance setting: 0 (or more than 0) up to `maxMetres`.
    public static func checkMetres(_ name: String, _ value: Double, allowsZero: Bool = false) -> RangeProblem? {
        check(name, value, allowsZero ? .zero : .aboveZero, max: maxMetres, unit: "metres")
    }

    /// `--keep-days`: more than 0, at most 100 years of track (its seconds stay far from any
    /// integer limit).
    public static func keepDays(_ value: Double) -> RangeProblem? {
        check("--keep-days", value, .aboveZero, max: 36_500, unit: "days")
    }

    /// Seconds as milliseconds, clamped to ±2^53 (NaN as 0): never traps, and leaves room for
    /// the arithmetic that follows (`now - last >= interval`). Checked settings never reach the clamp.
    public static func milliseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1000).rounded(.towardZero)
        guard value == value else { return 0 }
        let bound = 9_007_199_254_740_992.0  // 2^53
        return Int64(Swift.min(Swift.max(value, -bound), bound))
    }

    /// A Double as an Int, clamped to ±2^53 (NaN as 0), for display and counting code that must
    /// not trap whatever arithmetic produced the value.
    public static func int(_ value: Double) -> Int { WholeNumber.clamped(value) }

    /// A number as people read it: integers without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// The ranges of the command-line options that are not event settings (those are in
/// `EventSettings.problem`). Each returns nil for a good value, else the problem naming the option.
/// The CLI only calls these; the bounds live here, next to the reasons for them.
extension Limits {
    /// `replay --speed X`: 1/1000 to a million times real time. 1e-300 would make the wait before
    /// a fix overflow the nanosecond clock.
    public static func replaySpeed(_ value: Double) -> RangeProblem? {
        check("--speed", value, .atLeast(0.001), max: 1e6, unit: "times real time")
    }

    /// `simulate --rate HZ`: one epoch per 1000 s at the slowest (the period in milliseconds is an
    /// integer), 50 Hz at the fastest (what receivers do).
    public static func simulateRate(_ value: Double) -> RangeProblem? {
        check("--rate", value, .atLeast(0.001), max: 50, unit: "Hz")
    }

    /// `simulate --speed M/S` along a route without times.
    public static func simulateSpeed(_ value: Double) -> RangeProblem? {
        check("--speed", value, .atLeast(0.001), max: 1e6, unit: "m/s")
    }

    /// `record --duration S`.
    public static func recordDuration(_ value: Double) -> RangeProblem? { checkSeconds("--duration", value) }

    /// `--autobaud-window S`: how long autobaud listens at each rate.
    public static func autobaudWindow(_ value: Double) -> RangeProblem? {
        check("--autobaud-window", value, .aboveZero, max: 3600, unit: "seconds")
    }

    /// `decode --device --count N`: fixes to print, at least one; a billion is years of fixes at 25 Hz.
    public static func decodeCount(_ value: Int) -> RangeProblem? { check("--count", value, 1...1_000_000_000) }

    /// `configure --rate HZ`: what receivers do.
    public static func configureRate(_ value: Double) -> RangeProblem? {
        check("--rate", value, .atLeast(0.1), max: 25, unit: "Hz")
    }

    /// `configure --timeout S`: how long to wait for each answer of the receiver.
    public static func configureTimeout(_ value: Double) -> RangeProblem? {
        check("--timeout", value, .aboveZero, max: 30, unit: "seconds")
    }

    /// `status --watch --interval S`: between redraws.
    public static func redrawInterval(_ value: Double) -> RangeProblem? {
        check("--interval", value, .atLeast(0.1), max: 3600, unit: "seconds")
    }

    /// `--alarm-repeat S`: how often the alarm sounds again, at most twice a second.
    public static func alarmRepeat(_ value: Double) -> RangeProblem? {
        check("--alarm-repeat", value, .atLeast(0.5), max: maxSeconds, unit: "seconds")
    }

    /// `--exec-timeout S`.
    public static func execTimeout(_ value: Double) -> RangeProblem? { checkSeconds("--exec-timeout", value) }

    /// `--exec-concurrency N`: each running hook holds a thread.
    public static func execConcurrency(_ value: Int) -> RangeProblem? { check("--exec-concurrency", value, 1...256) }
}
