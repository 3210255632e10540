import Events
import Fences
import NMEA
import Presentation
import Store

/// Everything the field report (docs/report.md) shows, from captures or from a state file: the fences,
/// the usable fixes in time order, the events as printed, and what the receiver said.
public struct FieldReport {
    public var title: String
    public var fences: FenceSet
    /// Usable fixes, oldest first.
    public var points: [TrackPoint]
    public var events: [ReportEvent]
    public var statistics: ReceiverStatistics
    /// A pause longer than this many seconds between usable fixes is a gap in the track.
    public var gapSeconds: Double
    /// The zone of the page's times and the units of its measures (docs/report.md); the GeoJSON
    /// and GPX exports keep UTC and metres.
    public var format = HumanFormat()
    /// Metres per second no vehicle exceeds (`--max-speed`): consecutive fixes farther apart are
    /// the two ends of a jump the run went on from (docs/running.md, "Receiver glitches").
    public var maxSpeed: Double
    /// `--vehicle-height` in metres, when given: the events table says it beside a clearance.
    public var vehicleHeight: Double?

    public init(
        title: String, fences: FenceSet, points: [TrackPoint], events: [ReportEvent], statistics: ReceiverStatistics,
        gapSeconds: Double, maxSpeed: Double = EventSettings().maxSpeed
    ) {
        self.title = title
        self.fences = fences
        self.points = points
        self.events = events
        self.statistics = statistics
        self.gapSeconds = gapSeconds
        self.maxSpeed = maxSpeed
    }

    /// The track cut at its gaps: each stretch is continuous (no pause longer than `gapSeconds`,
    /// and no jump: the way between its two ends was not driven, so it is neither drawn nor
    /// counted in the distance).
    public var stretches: [ArraySlice<TrackPoint>] {
        var result: [ArraySlice<TrackPoint>] = []
        var start = 0
        let limit = Int64(gapSeconds * 1000)
        for index in points.indices.dropFirst()
        where points[index].time - points[index - 1].time > limit || isJump(points[index - 1], points[index]) {
            result.append(points[start..<index])
            start = index
        }
        if start < points.count { result.append(points[start...]) }
        return result
    }

    /// Whether the way between two consecutive fixes is a jump no vehicle makes.
    func isJump(_ from: TrackPoint, _ to: TrackPoint) -> Bool {
        !FixPlausibility.isDrivable(
            metres: Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: to.lat, lon2: to.lon),
            milliseconds: to.time - from.time, reportedSpeed: max(from.speed ?? 0, to.speed ?? 0),
            accuracies: (from.accuracy ?? 0) + (to.accuracy ?? 0), maxSpeed: maxSpeed)
    }

    /// The pauses between stretches: (last fix before, first fix after), ms. A jump is no pause.
    public var gaps: [(from: Int64, to: Int64)] {
        let parts = stretches
        let limit = Int64(gapSeconds * 1000)
        return zip(parts, parts.dropFirst()).map { ($0.last!.time, $1.first!.time) }.filter { $0.1 - $0.0 > limit }
    }
}

/// What the receiver said over the report's span (`nil`: not known, e.g. from a state file, which
/// keeps no sentence counts).
public struct ReceiverStatistics: Sendable {
    public var sentences: UInt64?
    public var badChecksums: UInt64?
    /// Receiver cycles (epochs) with and without a fix.
    public var cycles: Int?
    /// Fixes the engine processed, usable or not.
    public var fixes: Int
    public var usableFixes: Int
    public var device: String?

    public init(
        sentences: UInt64? = nil, badChecksums: UInt64? = nil, cycles: Int? = nil, fixes: Int, usableFixes: Int,
        device: String? = nil
    ) {
        self.sentences = sentences
        self.badChecksums = badChecksums
        self.cycles = cycles
        self.fixes = fixes
        self.usableFixes = usableFixes
        self.device = device
    }
}

/// One event as the report shows it: the typed record (from the engine, or read back from the
/// state file), and where its fence is in the report's fence set.
public struct ReportEvent: Sendable {
    public var record: EventRecord
    /// Index in the report's fence set, when the fence is in it.
    public var fence: Int?

    public init(_ record: EventRecord, fences: FenceLookup) {
        self.record = record
        fence = record.fence.flatMap { fences.index(of: $0.id) }
    }

    public var id: String { record.id }
    public var kind: GeofenceEvent.Kind { record.kind }
    /// The type as the event's JSON names it.
    public var type: String { record.kind.rawValue }
    public var time: Int64 { record.time.millisecondsSinceEpoch }
    /// The fence id as text ("bridge-1", "7"), empty for events without a fence.
    public var fenceID: String { record.fence?.id.text ?? "" }
    public var fenceName: String? { record.fence?.name }
    public var lat: Double? { record.event.location?.latitude }
    public var lon: Double? { record.event.location?.longitude }
    public var json: String { record.json }
}
