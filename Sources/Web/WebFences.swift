import Fences
import JSONOutput
import Platform

/// The fences of the run's file in a box, as outlines for the page's map (`GET
/// /api/fences?bbox=s,w,n,e`). The file is loaded once and again only when it changes, with each
/// fence's bounding box, so a request costs a scan of boxes.
final class WebFences: Sendable {
    private struct Loaded {
        var stamp: FenceFileStamp?
        var set: FenceSet
        var boxes: [(south: Double, west: Double, north: Double, east: Double)]
    }

    private let path: String?
    private let cache = Locked<Loaded?>(nil)
    /// The most fences one answer holds; the page asks for a smaller box when more are there.
    static let limit = 400

    init(path: String?) { self.path = path }

    /// `s,w,n,e` in degrees; nil when it is not four numbers in order.
    static func box(_ text: Substring?) -> (south: Double, west: Double, north: Double, east: Double)? {
        guard let parts = text?.split(separator: ",").compactMap({ Double($0) }), parts.count == 4,
            parts[0] <= parts[2], parts[1] <= parts[3], parts.allSatisfy(\.isFinite)
        else { return nil }
        return (parts[0], parts[1], parts[2], parts[3])
    }

    /// `{"fences":[{"id","name","kind","rings":[[[lat,lon],...],...]}],"truncated":false}`.
    func json(south: Double, west: Double, north: Double, east: Double) -> String {
        let loaded = current()
        let out = JSONBuffer()
        out.beginObject()
        out.key("fences")
        out.beginArray()
        var count = 0
        var truncated = false
        if let loaded {
            for fence in 0..<loaded.set.count {
                let box = loaded.boxes[fence]
                guard box.north >= south, box.south <= north, box.east >= west, box.west <= east else { continue }
                guard count < Self.limit else {
                    truncated = true
                    break
                }
                count += 1
                write(fence, of: loaded.set, to: out)
            }
        }
        out.endArray()
        out.key("truncated")
        out.value(truncated)
        out.key("file")
        out.value(loaded == nil ? nil : path)
        out.endObject()
        return out.string
    }

    private func write(_ fence: Int, of set: FenceSet, to out: JSONBuffer) {
        out.beginObject()
        out.key("id")
        out.beginRawValue()
        out.append(raw: set.ids[fence].json)
        out.key("name")
        out.value(set.name(fence))
        out.key("kind")
        switch set.kinds[fence] {
        case .circle: out.value("circle")
        case .polygon: out.value("polygon")
        case .corridor: out.value("corridor")
        }
        out.key("rings")
        out.beginArray()
        for ring in set.outline(fence) {
            out.beginArray()
            for point in ring {
                out.beginArray()
                out.value(point.lat, decimals: JSONPrecision.coordinate)
                out.value(point.lon, decimals: JSONPrecision.coordinate)
                out.endArray()
            }
            out.endArray()
        }
        out.endArray()
        out.endObject()
    }

    private func current() -> Loaded? {
        guard let path, !path.isEmpty else { return nil }
        let stamp = FenceFileStamp.read(path)
        return cache.withLock { cache in
            if let cached = cache, let stamp, cached.stamp == stamp { return cached }
            guard let set = try? FenceSet.load(path: path) else { return cache }
            let boxes = (0..<set.count).map { fence in
                var box = (south: 90.0, west: 180.0, north: -90.0, east: -180.0)
                for ring in set.outline(fence) {
                    for point in ring {
                        box.south = min(box.south, point.lat)
                        box.north = max(box.north, point.lat)
                        box.west = min(box.west, point.lon)
                        box.east = max(box.east, point.lon)
                    }
                }
                return box
            }
            cache = Loaded(stamp: stamp, set: set, boxes: boxes)
            return cache
        }
    }
}
