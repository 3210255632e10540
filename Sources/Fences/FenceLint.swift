import Presentation

/// What `gpsfence fences lint` finds in a fence file that loads but will not do what its author
/// meant (docs/fences.md, "Checking a fence file"). Each finding names the feature and says how to
/// fix it. The file must have loaded: what the loaders refuse is not repeated here.
public struct FenceFinding: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// No `id` nor `properties.id`: the derived id changes when the shape or name is edited.
        case noID = "no-id"
        /// The same shape (and name) as an earlier feature.
        case duplicate
        /// Overlaps another fence: a point there is inside both.
        case overlap
        /// The feature lies far from the others where its swapped coordinates would not.
        case swappedCoordinates = "swapped-coordinates"
        /// Smaller than the error of a GPS fix: events would flap.
        case tiny
        /// Larger than a geofence is meant to be.
        case huge
        /// A ring that crosses itself: containment is not what the drawing shows.
        case selfIntersecting = "self-intersecting"
    }

    public var kind: Kind
    /// The feature's index in the file (0-based, as in load errors).
    public var index: Int
    public var id: FenceID
    public var name: String?
    /// What is wrong, for people.
    public var problem: String
    /// What to do about it.
    public var fix: String
}

public enum FenceLint {
    /// Radii (or polygon extents) below this are within a consumer receiver's error (~5 m, more under
    /// trees): the fix wanders in and out while standing still.
    public static let tinyMetres = 10.0
    /// Fences larger than this are regions, not places; usually a radius in feet or km typed as metres.
    public static let hugeMetres = 100_000.0
    /// A ring with more vertices is not checked for self-intersection (the check is quadratic).
    static let ringCheckLimit = 4000

    /// Every finding in `set`, feature by feature in file order.
    public static func findings(_ set: FenceSet) -> [FenceFinding] {
        var found: [FenceFinding] = []
        func add(_ kind: FenceFinding.Kind, _ index: Int, _ problem: String, _ fix: String) {
            found.append(
                FenceFinding(
                    kind: kind, index: index, id: set.ids[index], name: set.name(index), problem: problem, fix: fix))
        }
        let outlines = (0..<set.count).map { set.kinds[$0] == .polygon ? set.outline($0) : [] }
        let centre = fileCentre(set)
        var shapes: [String: Int] = [:]
        for fence in 0..<set.count {
            if case .string(let text) = set.ids[fence], text.hasPrefix("auto-") {
                add(
                    .noID, fence, "has no id (given \(text), derived from its shape and name)",
                    "add \"id\" to the feature (or \"properties\": {\"id\": ...}) so that editing it keeps its "
                        + "state, topics and sensors")
            }
            let shapeKey = shapeText(set, fence, outlines[fence])
            if let first = shapes[shapeKey] {
                add(
                    .duplicate, fence, "has the same shape as feature \(first) (id \(set.ids[first].json))",
                    "delete one of them")
            } else {
                shapes[shapeKey] = fence
            }
            size(set, fence, outlines[fence], add)
            if let centre { swapped(set, fence, centre: centre, add) }
            for ring in outlines[fence] {
                if let crossing = selfCrossing(ring) {
                    add(
                        .selfIntersecting, fence,
                        "has a ring that crosses itself near (\(formatNumber(crossing.lat)), "
                            + "\(formatNumber(crossing.lon)))",
                        "redraw the ring so that its edges do not cross (or split it into two polygons)")
                    break
                }
            }
        }
        overlaps(set, outlines, shapes: shapes, add)
        return found.sorted { ($0.index, $0.kind.rawValue) < ($1.index, $1.kind.rawValue) }
    }

    /// A text that is equal for equal shapes (and names): for duplicates.
    static func shapeText(_ set: FenceSet, _ fence: Int, _ outline: [[(lat: Double, lon: Double)]]) -> String {
        let name = set.name(fence) ?? ""
        if let c = set.circle(fence) { return "c \(c.lat) \(c.lon) \(c.radius) \(name)" }
        // A corridor is its lines in their order and its radius: two ways of a road are two
        // shapes, however alike their (empty) names.
        if let corridor = set.corridor(fence) {
            let lines = corridor.lines.map { line in line.map { "\($0.lat),\($0.lon)" }.joined(separator: " ") }
            return "r \(corridor.radius) " + lines.joined(separator: " | ") + " " + name
        }
        let points = outline.flatMap { $0 }.map { "\($0.lat),\($0.lon)" }.sorted()
        return "p " + points.joined(separator: " ") + " " + name
    }

    static func size(
        _ set: FenceSet, _ fence: Int, _ outline: [[(lat: Double, lon: Double)]],
        _ add: (FenceFinding.Kind, Int, String, String) -> Void
    ) {
        if let c = set.circle(fence) {
            if c.radius < tinyMetres {
                add(
                    .tiny, fence, "has a radius of \(formatNumber(c.radius)) m, less than a GPS fix's error",
                    "use a radius of at least \(formatNumber(tinyMetres)) m (25 m or more under trees or between buildings)"
                )
            } else if c.radius > hugeMetres {
                add(
                    .huge, fence, "has a radius of \(HumanText.distance(c.radius))",
                    "radii are in metres: check the unit (feet? kilometres?)")
            }
            return
        }
        if let corridor = set.corridor(fence) {
            // Its width across is twice the radius; its length along the road is meant to be long.
            let width = 2 * corridor.radius
            if width < tinyMetres {
                add(
                    .tiny, fence,
                    "is a corridor only \(formatNumber(width)) m wide (radius \(formatNumber(corridor.radius)) m), "
                        + "less than a GPS fix's error",
                    "give it a radius of at least \(formatNumber(tinyMetres / 2)) m (half its width)")
            }
            return
        }
        let extent = polygonExtent(outline)
        if extent < tinyMetres {
            add(
                .tiny, fence, "is only \(formatNumber(extent)) m across, less than a GPS fix's error",
                "draw it at least \(formatNumber(tinyMetres)) m across")
        } else if extent > hugeMetres {
            add(
                .huge, fence, "is \(HumanText.distance(extent)) across",
                "check that the polygon is the place you meant (a stray vertex?)")
        }
    }

    /// The longest distance between two vertices' bounding corners of a polygon.
    static func polygonExtent(_ outline: [[(lat: Double, lon: Double)]]) -> Double {
        let points = outline.flatMap { $0 }
        guard let first = points.first else { return 0 }
        var minLat = first.lat
        var maxLat = first.lat
        var minLon = first.lon
        var maxLon = first.lon
        for p in points {
            minLat = min(minLat, p.lat)
            maxLat = max(maxLat, p.lat)
            minLon = min(minLon, p.lon)
            maxLon = max(maxLon, p.lon)
        }
        return Geodesy.haversine(lat1: minLat, lon1: minLon, lat2: maxLat, lon2: maxLon)
    }

    /// The median anchor of the file's fences, when there are enough of them (three) for one
    /// feature written `[lat, lon]` among others written `[lon, lat]` to stand out.
    static func fileCentre(_ set: FenceSet) -> (lat: Double, lon: Double)? {
        guard set.count >= 3 else { return nil }
        let anchors = (0..<set.count).map { set.anchorPoint($0) }
        let lats = anchors.map(\.lat).sorted()
        let lons = anchors.map(\.lon).sorted()
        return (lats[lats.count / 2], lons[lons.count / 2])
    }

    static func swapped(
        _ set: FenceSet, _ fence: Int, centre: (lat: Double, lon: Double),
        _ add: (FenceFinding.Kind, Int, String, String) -> Void
    ) {
        let anchor = set.anchorPoint(fence)
        guard abs(anchor.lon) <= 90 else { return }
        let away = Geodesy.haversine(lat1: anchor.lat, lon1: anchor.lon, lat2: centre.lat, lon2: centre.lon)
        let swappedAway = Geodesy.haversine(lat1: anchor.lon, lon1: anchor.lat, lat2: centre.lat, lon2: centre.lon)
        guard away > FencePlausibility.farMetres, swappedAway < away / 100 else { return }
        add(
            .swappedCoordinates, fence,
            "lies \(HumanText.distance(away)) from the other fences, but only "
                + "\(HumanText.distance(swappedAway)) with latitude and longitude swapped",
            "GeoJSON positions are [lon, lat]: swap the two numbers of each position")
    }

    /// Pairs of fences that share ground. A circle overlaps another fence when its centre is
    /// nearer to that fence's boundary than its radius (or inside it); a polygon when one of its
    /// vertices is inside another fence, or another circle's centre is inside it. Each pair once,
    /// on the later feature; duplicates are not reported again as overlaps.
    static func overlaps(
        _ set: FenceSet, _ outlines: [[[(lat: Double, lon: Double)]]], shapes: [String: Int],
        _ add: (FenceFinding.Kind, Int, String, String) -> Void
    ) {
        var pairs = Set<Pair>()
        let hits = FenceHits()
        func note(_ a: Int, _ b: Int) {
            guard a != b else { return }
            pairs.insert(Pair(first: min(a, b), second: max(a, b)))
        }
        for fence in 0..<set.count {
            if let c = set.circle(fence) {
                for (other, distance) in set.nearestFences(lat: c.lat, lon: c.lon, count: 16)
                where other != fence && distance < c.radius {
                    note(fence, other)
                }
            } else {
                for point in outlines[fence].flatMap({ $0 }) {
                    set.fences(containingLat: point.lat, lon: point.lon, into: hits)
                    for other in hits.array { note(fence, other) }
                }
            }
        }
        for pair in pairs.sorted(by: { ($0.second, $0.first) < ($1.second, $1.first) }) {
            let a = shapeText(set, pair.first, outlines[pair.first])
            let b = shapeText(set, pair.second, outlines[pair.second])
            if a == b { continue }
            add(
                .overlap, pair.second,
                "overlaps feature \(pair.first) (id \(set.ids[pair.first].json))",
                "fine when meant (a yard inside a site); otherwise shrink or move one of them")
        }
    }

    struct Pair: Hashable {
        let first: Int
        let second: Int
    }

    /// A point where two edges of `ring` (closed, first == last) cross, or nil. Rings too long for
    /// the quadratic check are taken as simple.
    static func selfCrossing(_ ring: [(lat: Double, lon: Double)]) -> (lat: Double, lon: Double)? {
        let n = ring.count - 1
        guard n >= 4, n <= ringCheckLimit else { return nil }
        for i in 0..<(n - 2) {
            for j in (i + 2)..<n where !(i == 0 && j == n - 1) {
                if let p = crossing(ring[i], ring[i + 1], ring[j], ring[j + 1]) { return p }
            }
        }
        return nil
    }

    /// Where segments ab and cd cross properly (in degrees, as the containment test treats them).
    static func crossing(
        _ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double),
        _ c: (lat: Double, lon: Double), _ d: (lat: Double, lon: Double)
    ) -> (lat: Double, lon: Double)? {
        let rx = b.lon - a.lon
        let ry = b.lat - a.lat
        let sx = d.lon - c.lon
        let sy = d.lat - c.lat
        let denominator = rx * sy - ry * sx
        guard denominator != 0 else { return nil }
        let qx = c.lon - a.lon
        let qy = c.lat - a.lat
        let t = (qx * sy - qy * sx) / denominator
        let u = (qx * ry - qy * rx) / denominator
        guard t > 0, t < 1, u > 0, u < 1 else { return nil }
        return (a.lat + t * ry, a.lon + t * rx)
    }
}
