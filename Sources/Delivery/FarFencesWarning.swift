import Events
import Fences
import NMEA
import Presentation

/// Says once, on standard error, when the first fix of a `run` or `replay` is far from every fence
/// or the fences look swapped around it (`FencePlausibility`): otherwise a swapped file only shows
/// as events that never come. Sets of more than `maxFences` are not checked (the check reads
/// every fence, on the engine thread, and a set that large covers the fixes anyway).
public final class FarFencesWarning: EventSink {
    static let maxFences = 50_000
    private let fences: FenceSet
    private var checked = false

    public init(fences: FenceSet) {
        self.fences = fences
        checked = fences.count > Self.maxFences
    }

    public var observesFixes: Bool { !checked }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {}

    public func observe(_ fix: Fix) {
        guard !checked, fix.latitude.isFinite, fix.longitude.isFinite else { return }
        checked = true
        if let warning = FencePlausibility.warning(fences, lat: fix.latitude, lon: fix.longitude) {
            OutputWriter.standardError.write(line: "gpsfence: warning: first fix: " + warning)
        }
    }

    public func finish() {}
}
