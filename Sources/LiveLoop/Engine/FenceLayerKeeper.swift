import Delivery
import Events
import Fences
import NMEA
import Store

/// What a run is told about the fence layers (docs/running.md, "Fence layers" and "At anchor").
public struct FenceLayerOptions: Sendable {
    /// Whether this run keeps the layers (`run`); false (`replay`): none, and the state file's
    /// saved ones are left as they are.
    public var ownsLayers = false
    /// `--anchor RADIUS`: the anchor circle's radius in metres; nil: no anchor watch (and a saved
    /// anchor is forgotten).
    public var anchorRadius: Double?
    /// `--anchor-at LAT,LON`: the anchor there instead of at the first usable fix.
    public var anchorAt: (lat: Double, lon: Double)?
    /// `--reanchor`: forget the saved anchor and drop it again at the first usable fix.
    public var reanchor = false
    /// `--anchor-warn PERCENT`, as a share of the radius (0.8): an `anchor_warning` when the boat
    /// first gets that far from the anchor.
    public var anchorWarning: Double?
    /// With `--owntracks` on `run`: where OwnTracks `setWaypoints` commands arrive.
    public var ownTracksCommands: OwnTracksCommandInbox?

    public init() {}
}

/// The run's `FenceLayers` and their life: the anchor dropped at the first usable fix, OwnTracks
/// commands applied, both kept in the state file, and the set the engine runs on built again when
/// they change. Engine thread only.
final class FenceLayerKeeper {
    static let anchorName = "Anchor"

    private(set) var layers: FenceLayers
    /// `layers.combined()`, built when the layers change.
    private(set) var set: FenceSet
    private let options: FenceLayerOptions
    private let store: StateStore?
    private let report: (Problem) -> Void
    /// Waiting for the first usable fix to drop the anchor at.
    private var anchorDue = false
    /// `--anchor-at` placed the anchor: the first usable fix may already be outside it.
    private var anchorPlacedAway = false
    private var shadowed: [LayerCircleRefusal] = []
    /// The largest distance of the boat from the anchor so far, and what the state file has of it.
    private(set) var anchorMaxDistance: Double?
    private var savedAnchorMaxDistance: Double?

    /// Takes the saved layers back from `store`.
    init(main: FenceSet, options: FenceLayerOptions, store: StateStore?, report: @escaping (Problem) -> Void) throws {
        layers = FenceLayers(main: main)
        set = main
        self.options = options
        self.store = store
        self.report = report
        guard options.ownsLayers else { return }
        try restoreAnchor()
        if options.ownTracksCommands != nil {
            layers.ownTracksRegions = try store?.layerCircles(.ownTracks) ?? []
        }
        rebuild()
    }

    private func restoreAnchor() throws {
        guard let radius = options.anchorRadius else {
            // Weighed anchor: a later `--anchor` drops a new one, never the old spot of another day.
            if try store?.layerCircles(.anchor).isEmpty == false { try store?.saveLayerCircles(.anchor, []) }
            return
        }
        if let at = options.anchorAt {
            // The same spot again (a restart): the earlier run has judged the boat against it.
            let saved = try store?.layerCircles(.anchor).first?.circle
            anchorPlacedAway = saved.map { $0.lat != at.lat || $0.lon != at.lon } ?? true
            try setAnchor(lat: at.lat, lon: at.lon, radius: radius)
        } else if !options.reanchor, let saved = try store?.layerCircles(.anchor).first {
            let kept = try store?.anchorMaxDistance()
            try setAnchor(lat: saved.circle.lat, lon: saved.circle.lon, radius: radius)
            anchorMaxDistance = kept
        } else {
            try store?.saveLayerCircles(.anchor, [])
            anchorDue = true
        }
    }

    private func setAnchor(lat: Double, lon: Double, radius: Double) throws {
        let anchor = LayerCircle(
            layer: .anchor, id: LayerCircle.anchorID, name: Self.anchorName,
            circle: CircleShape(lat: lat, lon: lon, radius: radius))
        layers.anchor = anchor
        try store?.saveLayerCircles(.anchor, [anchor])
    }

    /// The boat's distance from the anchor at a usable fix.
    func noteAnchorDistance(_ metres: Double) {
        if metres > anchorMaxDistance ?? -1 { anchorMaxDistance = metres }
    }

    /// Writes the largest distance when it grew by a metre or more since it was last written: a
    /// drag writes it every few seconds, a boat at rest almost never.
    func saveAnchorMaxDistanceIfGrown() throws {
        guard let largest = anchorMaxDistance, largest >= (savedAnchorMaxDistance ?? -1) + 1 else { return }
        try store?.saveAnchorMaxDistance(largest)
        savedAnchorMaxDistance = largest
    }

    /// True once, at the first usable fix, when `--anchor-at` placed the anchor: that fix is
    /// checked against the circle, since the engine only tells an exit from a fix inside it.
    func takeFirstFixCheck() -> Bool {
        defer { anchorPlacedAway = false }
        return anchorPlacedAway
    }

    /// The next usable fix drops the anchor (and changes the fences).
    var anchorIsDue: Bool { anchorDue && options.anchorRadius != nil }

    /// Drops the anchor at `fix` if it waits for a usable one (docs/events.md: a time, and an
    /// accuracy within `maxAccuracy`). True when the set changed.
    func dropAnchorIfDue(at fix: Fix, maxAccuracy: Double) throws -> Bool {
        guard anchorDue, let radius = options.anchorRadius, fix.time != nil,
            (fix.accuracy ?? 0) <= maxAccuracy
        else { return false }
        anchorDue = false
        try setAnchor(lat: fix.latitude, lon: fix.longitude, radius: radius)
        rebuild()
        return true
    }

    /// OwnTracks commands (or problems with them) wait to be applied.
    var hasCommands: Bool { options.ownTracksCommands?.hasPending ?? false }

    /// Applies the OwnTracks commands that arrived. True when the set changed.
    func applyCommands() throws -> Bool {
        guard let inbox = options.ownTracksCommands else { return false }
        var regions = layers.ownTracksRegions
        for item in inbox.take() {
            switch item {
            case .command(let command):
                for refusal in command.refused {
                    report(.fenceLayer(.waypointLeftOut(index: refusal.index, refusal.problem)))
                }
                regions = command.applied(to: regions)
            case .problem(let problem):
                report(.fenceLayer(problem))
            }
        }
        guard regions != layers.ownTracksRegions else { return false }
        layers.ownTracksRegions = regions
        try store?.saveLayerCircles(.ownTracks, regions)
        rebuild()
        return true
    }

    /// The OwnTracks regions' times from their commands, by index in `fences` (a set with these layers).
    func creationTimes(in fences: FenceSet) -> [(fence: Int, time: Int64)] { layers.creationTimes(in: fences) }

    /// A new main set (a reload of the fence file): the set with the layers over it.
    func replaceMain(_ main: FenceSet) -> FenceSet {
        layers.replaceMain(main)
        rebuild()
        return set
    }

    /// The set again, and a word for each layer circle newly left out (its id was taken).
    private func rebuild() {
        let combined = layers.combined()
        set = combined.set
        let problems = combined.shadowed.map {
            LayerCircleRefusal(layer: $0.circle.layer, id: $0.circle.id, cause: $0.cause)
        }
        for problem in problems where !shadowed.contains(problem) { report(.fenceLayer(.circleLeftOut(problem))) }
        shadowed = problems
    }
}
