import Platform

/// The road corridors ahead of a point on a road, with the metres along the roads to each: a walk
/// from the point along its road in the direction of travel, then on along every road joined to
/// it (as `FenceSet.corridorsJoin` joins them) in each direction it may be driven, until `maxDistance`. A road
/// reached by several ways keeps the distance of the first walk that reached it (fewest joins
/// first). Reusable scratch for one thread: a walk allocates nothing once its lists have grown.
public final class RoadsAhead {
    /// The fences reached, in the order reached, and the metres to each.
    public private(set) var fences: [Int32] = []
    public private(set) var distances: [Double] = []
    /// Corridors (store indices) walked or queued, the one the walk starts on first.
    private var visited: [Int32] = []
    private var queue: [(corridor: Int, nodes: SharedNodes?, vertex: Int, step: Int, distance: Double)] = []
    private let hits = FenceHits()

    /// At most this many corridors are reached: a walk stays a few microseconds in a dense grid of
    /// streets.
    public static let maxCorridors = 64

    public init() {
        fences.reserveCapacity(Self.maxCorridors)
        distances.reserveCapacity(Self.maxCorridors)
        visited.reserveCapacity(Self.maxCorridors + 1)
        queue.reserveCapacity(2 * Self.maxCorridors + 2)
    }

    /// Walks from the point (on corridor fence `road`) heading `bearing` degrees; `tags` gives each
    /// corridor's road tags (how it may be driven, where it meets others), nil for a corridor that
    /// is not a road (not walked).
    public func walk(
        _ set: FenceSet, from road: Int, lat: Double, lon: Double, bearing: Double, maxDistance: Double,
        tags: (Int) -> RoadTags?
    ) {
        fences.removeAll(keepingCapacity: true)
        distances.removeAll(keepingCapacity: true)
        visited.removeAll(keepingCapacity: true)
        queue.removeAll(keepingCapacity: true)
        let corridor = Int(set.shapeIndex[road])
        let position = set.roadPosition(road, lat: lat, lon: lon)
        var turn = abs(bearing - position.bearing).truncatingRemainder(dividingBy: 360)
        if turn > 180 { turn = 360 - turn }
        let vertex = turn <= 90 ? position.vertex + 1 : position.vertex
        let store = set.corridors
        let first = Geodesy.haversine(lat1: lat, lon1: lon, lat2: store.lat[vertex], lon2: store.lon[vertex])
        visited.append(Int32(corridor))
        queue.append((corridor, tags(road)?.sharedNodes, vertex, turn <= 90 ? 1 : -1, first))
        var head = 0
        while head < queue.count {
            let item = queue[head]
            head += 1
            let line = set.lineVertices(of: item.corridor, holding: item.vertex)
            var w = item.vertex
            var distance = item.distance
            while distance <= maxDistance {
                guard join(set, at: w, of: item.corridor, nodes: item.nodes, distance: distance, tags: tags) else {
                    return
                }
                let next = w + item.step
                guard line.contains(next) else { break }
                distance += Geodesy.haversine(
                    lat1: store.lat[w], lon1: store.lon[w], lat2: store.lat[next], lon2: store.lon[next])
                w = next
            }
        }
    }

    /// Notes the roads joined at store vertex `v` of corridor `r` (whose road meets others at
    /// `nodes`), reached after `distance` metres, and queues their walks; false once
    /// `maxCorridors` are reached.
    private func join(
        _ set: FenceSet, at v: Int, of r: Int, nodes: SharedNodes?, distance: Double, tags: (Int) -> RoadTags?
    ) -> Bool {
        let lon = set.corridors.lon[v]
        let lat = set.corridors.lat[v]
        hits.removeAll()
        set.candidates(in: BoundingBox(minX: lon, minY: lat, maxX: lon, maxY: lat), into: hits)
        hits.sortUnique()
        for index in 0..<hits.count {
            let fence = hits[index]
            guard set.kinds[fence] == .corridor else { continue }
            let corridor = Int(set.shapeIndex[fence])
            guard !visited.contains(Int32(corridor)), let road = tags(fence),
                let w = set.joinedVertex(of: corridor, nodes: road.sharedNodes, at: v, of: r, nodes: nodes)
            else { continue }
            let way = road.direction
            visited.append(Int32(corridor))
            fences.append(Int32(fence))
            distances.append(distance)
            let line = set.lineVertices(of: corridor, holding: w)
            if way != .backward && line.contains(w + 1) { queue.append((corridor, road.sharedNodes, w, 1, distance)) }
            if way != .forward && line.contains(w - 1) { queue.append((corridor, road.sharedNodes, w, -1, distance)) }
            if fences.count >= Self.maxCorridors { return false }
        }
        return true
    }
}
