import Fences
import LiveLoop
import NMEA
import Platform

/// A jammer and a spoofer for `simulate --jam START+DURATION` and `--spoof START`, as the
/// receiver would hear them, so that a run can be rehearsed against both (docs/running.md):
///
/// - a jam: C/N0 falls on every satellite by `jamFall` dB-Hz a second (the receiver loses the
///   weakest first, then its fix), and climbs back by `jamRecovery` a second after DURATION;
/// - a spoof, a takeover: from START every satellite is at about `spoofedCN0` dB-Hz (one
///   transmitter's flat, strong signals), `clockStepAfter` seconds later the receiver's clock
///   jumps by `clockStep`, and `pullAfter` seconds later the position starts moving off the
///   route at `pullSpeed` m/s towards `pullBearing`, speed and course saying so.
///
/// Times are seconds from the first epoch of the play.
public struct Interference: Sendable, Equatable {
    public struct Jam: Sendable, Equatable {
        public var start: Double
        public var duration: Double

        public init(start: Double, duration: Double) {
            self.start = start
            self.duration = duration
        }
    }

    public var jam: Jam?
    public var spoofStart: Double?

    public init(jam: Jam? = nil, spoofStart: Double? = nil) {
        self.jam = jam
        self.spoofStart = spoofStart
    }

    public var isEmpty: Bool { jam == nil && spoofStart == nil }

    public static let jamFall = 2.0
    public static let jamRecovery = 4.0
    /// Deepest loss: every satellite is far below tracking.
    public static let jamFloor = 40.0
    public static let spoofedCN0 = 50.0
    public static let clockStepAfter = 2.0
    /// Seconds the receiver's clock jumps ahead.
    public static let clockStep = 1.8
    /// The receiver says it suspects spoofing this long after the takeover (UBX flags).
    public static let spoofFlaggedAfter = 3.0
    public static let pullAfter = 4.0
    public static let pullSpeed = 3.0
    public static let pullBearing = 135.0

    /// `START+DURATION` in seconds (`60+30`), or why not.
    public static func parseJam(_ text: String) -> Result<Jam, InterferenceProblem> {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = Double(parts[0]), let duration = Double(parts[1]) else {
            return .failure(.jamNotInForm(given: text))
        }
        guard start.isFinite, start >= 0 else { return .failure(.jamStartBeforeRoute(given: text)) }
        guard duration.isFinite, duration > 0 else { return .failure(.jamWithoutDuration(given: text)) }
        return .success(Jam(start: start, duration: duration))
    }

    /// `START` in seconds, or why not.
    public static func parseSpoof(_ text: String) -> Result<Double, InterferenceProblem> {
        guard let start = Double(text) else { return .failure(.spoofNotInForm(given: text)) }
        guard start.isFinite, start >= 0 else { return .failure(.spoofStartBeforeRoute(given: text)) }
        return .success(start)
    }

    /// dB-Hz lost on every satellite `elapsed` seconds into the play.
    public func jammingLoss(at elapsed: Double) -> Double {
        guard let jam, elapsed >= jam.start else { return 0 }
        let end = jam.start + jam.duration
        if elapsed < end { return min(Self.jamFloor, (elapsed - jam.start) * Self.jamFall) }
        let deepest = min(Self.jamFloor, jam.duration * Self.jamFall)
        return max(0, deepest - (elapsed - end) * Self.jamRecovery)
    }

    /// Seconds since the spoofer took over, nil before.
    public func spoofedFor(at elapsed: Double) -> Double? {
        guard let spoofStart, elapsed >= spoofStart else { return nil }
        return elapsed - spoofStart
    }

    /// What the receiver hears `elapsed` seconds into the play.
    public func condition(at elapsed: Double) -> SignalCondition {
        var condition = SignalCondition(elapsed: elapsed)
        condition.jammingLoss = jammingLoss(at: elapsed)
        if let spoofed = spoofedFor(at: elapsed) {
            condition.spoofedCN0 = Self.spoofedCN0
            condition.spoofingFlagged = spoofed >= Self.spoofFlaggedAfter
        }
        condition.writesErrorEllipse = !isEmpty
        return condition
    }

    /// The fix the receiver reports: under a spoofer, on a stepped clock and pulled off the route.
    public func reported(_ fix: SimulatedFix, elapsed: Double) -> SimulatedFix {
        guard let spoofed = spoofedFor(at: elapsed) else { return fix }
        var reported = fix
        if spoofed >= Self.clockStepAfter {
            reported.time.millisecondsSinceEpoch += Int64((Self.clockStep * 1000).rounded())
        }
        guard spoofed >= Self.pullAfter else { return reported }
        let pulled = Geodesy.destination(
            lat: fix.latitude, lon: fix.longitude, bearing: Self.pullBearing,
            distance: (spoofed - Self.pullAfter) * Self.pullSpeed)
        reported.latitude = pulled.lat
        reported.longitude = pulled.lon
        // The true motion and the pull, added as vectors: what the receiver's velocity says.
        let radians = Double.pi / 180
        let east = fix.speed * sin(fix.track * radians) + Self.pullSpeed * sin(Self.pullBearing * radians)
        let north = fix.speed * cos(fix.track * radians) + Self.pullSpeed * cos(Self.pullBearing * radians)
        reported.speed = (east * east + north * north).squareRoot()
        let course = atan2(east, north) / radians
        reported.track = course < 0 ? course + 360 : course
        return reported
    }
}
