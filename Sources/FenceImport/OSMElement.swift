/// One node, way or relation as a reader hands it over: reused from element to element, so that
/// reading a country allocates per kept tag, not per element.
final class OSMElement {
    enum Kind { case node, way, relation }

    struct Member {
        var isWay: Bool
        var ref: Int64
        var role: String
    }

    var kind = Kind.node
    var id: Int64 = 0
    /// A node's position in ten-millionths of a degree (OSM's own resolution).
    var lat7: Int64 = 0
    var lon7: Int64 = 0
    /// A way's node ids.
    var refs: [Int64] = []
    /// A relation's members.
    var members: [Member] = []
    /// Only the tags whose keys were asked for: the key's index in `OSMTagKeys`, the value.
    var tags: [(key: Int, value: String)] = []

    func reset(_ kind: Kind) {
        self.kind = kind
        id = 0
        lat7 = 0
        lon7 = 0
        refs.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
    }

    func tag(_ key: Int) -> String? {
        for tag in tags where tag.key == key { return tag.value }
        return nil
    }
}

/// The tag keys an import looks at, by index: the fixed ones, then each `--select` key.
struct OSMTagKeys {
    static let name = 0
    static let ref = 1
    static let maxheight = 2
    static let maxheightPhysical = 3
    static let maxspeed = 4
    static let maxspeedForward = 5
    static let maxspeedBackward = 6
    static let width = 7
    static let lanes = 8
    static let highway = 9
    static let type = 10
    static let railway = 11
    static let waterway = 12
    static let area = 13
    static let amenity = 14
    static let building = 15
    static let parking = 16
    /// The truck's restrictions (`--truck-restrictions`), kept under their own names.
    static let truck = 17..<23
    /// `maxspeed:conditional` (`--speed-limits`), and the truck's conditional limits
    /// (`--truck-restrictions`), kept under their own names with the times they hold.
    static let maxspeedConditional = 23
    static let truckConditional = 24..<26
    /// What matching to the road being driven reads (`OSMRoadTags`).
    static let oneway = 26
    static let junction = 27
    static let layer = 28
    static let bridge = 29
    static let tunnel = 30
    static let level = 31
    /// One way's forms: `maxspeed:forward:conditional` and `maxspeed:backward:conditional`
    /// (`--speed-limits`), `maxspeed:hgv:forward` and `maxspeed:hgv:backward`
    /// (`--truck-restrictions`).
    static let maxspeedOneWayConditional = 32..<34
    static let hgvOneWay = 34..<36
    static let fixed = [
        "name", "ref", "maxheight", "maxheight:physical", "maxspeed", "maxspeed:forward", "maxspeed:backward",
        "width", "lanes", "highway", "type", "railway", "waterway", "area", "amenity", "building", "parking",
        "maxweight", "maxwidth", "maxlength", "maxaxleload", "hgv", "maxspeed:hgv",
        "maxspeed:conditional", "maxspeed:hgv:conditional", "maxweight:conditional",
        "oneway", "junction", "layer", "bridge", "tunnel", "level",
        "maxspeed:forward:conditional", "maxspeed:backward:conditional", "maxspeed:hgv:forward",
        "maxspeed:hgv:backward",
    ]

    let keys: [[UInt8]]

    init(selections: [TagSelection]) {
        var names = Self.fixed
        for selection in selections where !names.contains(selection.key) { names.append(selection.key) }
        keys = names.map { Array($0.utf8) }
    }

    /// None: a pass that needs no tags.
    init() { keys = [] }

    func index(of key: String) -> Int? { keys.firstIndex(of: Array(key.utf8)) }

    func index(of bytes: UnsafeRawBufferPointer) -> Int? {
        if bytes.isEmpty { return nil }
        for (index, key) in keys.enumerated() where key.count == bytes.count {
            if key.withUnsafeBytes({ $0.elementsEqual(bytes) }) { return index }
        }
        return nil
    }
}

/// Which elements a pass visits.
struct OSMKinds: OptionSet {
    let rawValue: Int
    static let nodes = OSMKinds(rawValue: 1)
    static let ways = OSMKinds(rawValue: 2)
    static let relations = OSMKinds(rawValue: 4)
}

/// A reader of an OSM file (XML or PBF), one pass at a time.
protocol OSMReader: AnyObject {
    var path: String { get }
    /// Visits the elements of `kinds` in file order with the tags of `keys`; a pass of nodes
    /// alone ends at the first way. A pass with keys may leave out nodes without tags.
    func read(_ kinds: OSMKinds, keys: OSMTagKeys, visit: (OSMElement) throws -> Void) throws
    /// A pass of nodes alone, each node's id and position (ten-millionths of a degree) handed over
    /// as plain numbers: the pass that reads a country's every node.
    func readLocations(_ note: (_ id: Int64, _ lat7: Int64, _ lon7: Int64) -> Void) throws
}
