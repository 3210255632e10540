/// Waits between attempts to reach something that is down (a receiver, gpsd, a broker, a webhook):
/// `initial` doubling per failure up to `maximum`; with `jitter`, a random point in the upper half
/// of that (so that many clients do not retry in step). Each caller keeps its own constants.
public struct Backoff: Sendable, Equatable {
    public var initial: Double
    public var maximum: Double
    public var jitter: Bool
    /// Failures since the last `reset`.
    public private(set) var failures = 0

    public init(initial: Double, maximum: Double, jitter: Bool = false) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The wait after one more failure.
    public mutating func next() -> Double {
        failures += 1
        return delay(afterFailures: failures)
    }

    /// After a success: the next failure waits `initial` again.
    public mutating func reset() { failures = 0 }

    /// The wait after `count` failures in a row (for callers that keep the count elsewhere, such as
    /// the outbox, which stores each row's attempts).
    public func delay(afterFailures count: Int) -> Double {
        let exponent = min(max(count - 1, 0), 30)
        let full = min(maximum, initial * Double(1 << exponent))
        return jitter ? Double.random(in: full / 2...full) : full
    }
}

/// "Say the outage once": whether a failure is news (the first of an outage, or, if asked, a
/// different problem than the one already said) and whether a success ends an outage. The four
/// reconnecting parts (the serial reader, the gpsd source, the MQTT connection, the outbox
/// delivery) report through this, so a target that stays down is one message, not one per retry.
public struct OutageLog<Problem: Equatable & Sendable>: Sendable {
    public enum Repeats: Sendable {
        /// One message per outage, whatever its problems.
        case oncePerOutage
        /// Again when the problem changes (the reader: "no such device", then "permission denied").
        case whenTheProblemChanges
    }

    public let repeats: Repeats
    /// The problem said for the outage in progress; nil when up.
    public private(set) var current: Problem?

    public init(_ repeats: Repeats = .oncePerOutage) { self.repeats = repeats }

    public var isOut: Bool { current != nil }

    /// Records a failure; true when it should be said.
    public mutating func failed(_ problem: Problem) -> Bool {
        let news =
            switch repeats {
            case .oncePerOutage: current == nil
            case .whenTheProblemChanges: current != problem
            }
        if news { current = problem }
        return news
    }

    /// Records a success; true when it ends an outage that was said.
    public mutating func recovered() -> Bool {
        defer { current = nil }
        return current != nil
    }
}
