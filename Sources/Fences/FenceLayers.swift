import JSONOutput

/// A circle that is not in the fence file: the anchor, or an OwnTracks region (docs/running.md,
/// "Fence layers").
public struct LayerCircle: Sendable, Equatable {
    public enum Layer: String, Sendable {
        /// `--anchor`: one circle, id `anchor`.
        case anchor
        /// OwnTracks `setWaypoints` commands: marked `"owntracks": true`, so their transitions
        /// are published as those of marked fences (docs/mqtt.md).
        case ownTracks = "owntracks"
    }

    /// The anchor circle's id.
    public static let anchorID = "anchor"

    public var layer: Layer
    public var id: String
    public var name: String?
    public var circle: CircleShape
    /// When the circle was made (ms since 1970), as its command said (an OwnTracks waypoint's
    /// `tst`); nil: when this run registered it.
    public var created: Int64?

    public init(layer: Layer, id: String, name: String?, circle: CircleShape, created: Int64? = nil) {
        self.layer = layer
        self.id = id
        self.name = name
        self.circle = circle
        self.created = created
    }

    /// The fence's properties: the layer's mark, so that sinks and exports can tell it apart.
    var propertiesJSON: String { Self.properties(of: layer) }

    /// The anchor circle's exit distance beyond its radius (metres) and the seconds the boat must
    /// stay beyond it before the anchor's `exit` (docs/running.md, "At anchor"), chosen on days of
    /// marina multipath and on drags (docs/performance.md, "Anchor watch at rest"). No metres of
    /// its own: the exit distance is the fix's own error estimate (GST's, else HDOP's), so the
    /// alarm comes as soon as the receiver itself places the boat outside; the delay outlasts the
    /// spikes that throw a position tens of metres for up to 20 s, and a dragging boat goes on.
    public static let anchorHysteresis = 0.0
    public static let anchorDelay = 22.0

    /// The fence settings a layer's circles carry: the anchor's hysteresis and delay; an
    /// OwnTracks region's are the run's.
    var settings: FenceSettings { Self.settings(of: layer) }

    static func settings(of layer: Layer) -> FenceSettings {
        switch layer {
        case .anchor: anchorSettings
        case .ownTracks: FenceSettings()
        }
    }

    private static let anchorSettings: FenceSettings = {
        var rules = FenceRules()
        rules.exitDelay = anchorDelay
        return FenceSettings(hysteresis: anchorHysteresis, rules: rules)
    }()

    static func properties(of layer: Layer) -> String {
        switch layer {
        case .anchor: return anchorMark
        case .ownTracks: return ownTracksMark
        }
    }

    private static let anchorMark = mark("anchor")
    private static let ownTracksMark = mark("owntracks")

    /// `{"NAME":true}`.
    private static func mark(_ name: String) -> String {
        var mark = JSONLine()
        mark.add(name, true)
        return mark.string
    }
}

/// The engine's fence set as the union of the main set (the fence file) and the layers: the anchor
/// circle, then the OwnTracks regions, after the main set's fences (so those keep their indices
/// and their order in ties). Ids never collide in the result: a layer circle whose id the main set
/// (or an earlier layer circle) already has is left out and named in `shadowed`; the fence file
/// wins, then the anchor.
public struct FenceLayers: Sendable {
    public private(set) var main: FenceSet
    public var anchor: LayerCircle?
    /// In the order the commands gave them; one per id.
    public var ownTracksRegions: [LayerCircle] = []

    public init(main: FenceSet) { self.main = main }

    public mutating func replaceMain(_ set: FenceSet) { main = set }

    /// Whether fence `index` of `fences` is the anchor circle (docs/running.md, "At anchor").
    public static func isAnchor(_ fences: FenceSet, _ index: Int) -> Bool {
        fences.ids[index] == .string(LayerCircle.anchorID)
            && fences.info(index).propertiesJSON == LayerCircle.properties(of: .anchor)
    }

    public var circles: [LayerCircle] { (anchor.map { [$0] } ?? []) + ownTracksRegions }

    /// The OwnTracks regions of `fences` (the combined set) whose command said when they were
    /// made: their index there and that time (ms since 1970).
    public func creationTimes(in fences: FenceSet) -> [(fence: Int, time: Int64)] {
        var created: [FenceID: Int64] = [:]
        for region in ownTracksRegions { if let time = region.created { created[.string(region.id)] = time } }
        guard !created.isEmpty else { return [] }
        let marked = LayerCircle.properties(of: .ownTracks)
        return (min(main.count, fences.count)..<fences.count).compactMap { fence in
            guard fences.info(fence).propertiesJSON == marked, let time = created[fences.ids[fence]] else { return nil }
            return (fence, time)
        }
    }

    /// Why a layer circle was left out of the set.
    public enum LeftOut: Sendable, Equatable {
        /// Its id is the id of a fence of the file, or of an earlier circle.
        case idTaken
        /// The fence set refused it as a fence.
        case refused(FenceProblem)
    }

    /// The set the engine runs on; `shadowed`: the layer circles left out because their id was
    /// taken, with why.
    public func combined() -> (set: FenceSet, shadowed: [(circle: LayerCircle, cause: LeftOut)]) {
        let circles = self.circles
        guard !circles.isEmpty else { return (main, []) }
        var taken = Set<String>()
        var builder = FenceSetBuilder(file: "<fence layers>", expectedCount: circles.count)
        builder.reserveIDs(circles.count)
        var shadowed: [(circle: LayerCircle, cause: LeftOut)] = []
        for circle in circles {
            guard main.ids.firstIndex(sameAs: .string(circle.id)) == nil, taken.insert(circle.id).inserted else {
                shadowed.append((circle, .idTaken))
                continue
            }
            do {
                try builder.add(
                    id: .string(circle.id), name: circle.name, settings: circle.settings,
                    propertiesJSON: circle.propertiesJSON,
                    shape: .circle(circle.circle))
            } catch {
                shadowed.append((circle, .refused(error.problem)))
            }
        }
        return (main.appending(circles: builder), shadowed)
    }
}
