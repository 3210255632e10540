import JSONInput

/// The ways a road may be driven, against the order of its line's vertices.
public enum RoadDirection: Sendable, Equatable {
    case both
    /// `oneway=yes`: in the order of the vertices.
    case forward
    /// `oneway=-1`: against it.
    case backward
}

/// Which way a vehicle drives along a road's line.
public enum TravelDirection: Sendable, Equatable {
    /// In the order of its vertices.
    case forward
    case backward
}

/// What matching a fix to the road being driven needs of a road corridor (docs/fences.md, "The
/// road being driven"), read from its properties: a corridor is a road when it has `highway`
/// (what `fences import` writes for every road it keeps).
public struct RoadTags: Sendable, Equatable {
    public var direction: RoadDirection
    /// `layer`, else 1 on a bridge and -1 in a tunnel (a building's passage is at the street's
    /// level), else 0: roads at different layers cross without meeting.
    public var layer: Double
    /// `level` (a car park's floors), else 0.
    public var level: Double
    /// `shared_nodes`, where the road meets the other roads of its OSM file; nil on a road drawn
    /// by hand, which joins others where they share a vertex's position (`FenceSet.corridorsJoin`).
    public var sharedNodes: SharedNodes?
    /// In a tunnel (`tunnel=*` but `no` and `building_passage`): out of the sky's view, where no
    /// receiver has a fix, so a vehicle gets there only along the roads that lead in.
    public var underground: Bool
    /// `at_node`: the road is a piece of a longer one around this OSM node, carrying the node's
    /// restriction (a height barrier); nil for a whole road.
    public var atNode: Int64?

    public init(
        direction: RoadDirection = .both, layer: Double = 0, level: Double = 0, underground: Bool = false,
        sharedNodes: SharedNodes? = nil, atNode: Int64? = nil
    ) {
        self.direction = direction
        self.layer = layer
        self.level = level
        self.underground = underground
        self.sharedNodes = sharedNodes
        self.atNode = atNode
    }

    /// Whether the two roads lie at one height, where a vehicle can pass from one to the other.
    public func sameHeight(as other: RoadTags) -> Bool { layer == other.layer && level == other.level }

    /// The road tags of a feature's properties (minified JSON), nil when it has no `highway` or
    /// the properties do not read.
    static func read(_ properties: UnsafeBufferPointer<UInt8>) -> RoadTags? {
        var scanner = JSONScanner(properties)
        guard scanner.consume(0x7B), !scanner.consume(0x7D) else { return nil }
        var isRoad = false
        var tags = RoadTags()
        var layer: Double?
        var bridge = false
        var tunnel: String?
        do {
            repeat {
                let key = try scanner.stringSpan()
                try scanner.expect(0x3A, "':'")
                if scanner.spanEquals(key, "highway") {
                    isRoad = scanner.peek() == 0x22
                    try scanner.skipValue()
                } else if scanner.spanEquals(key, "oneway") {
                    switch try text(&scanner) {
                    case "yes", "true", "1": tags.direction = .forward
                    case "-1", "reverse": tags.direction = .backward
                    default: break
                    }
                } else if scanner.spanEquals(key, "bridge") {
                    bridge = (try text(&scanner)).map { $0 != "no" } ?? false
                } else if scanner.spanEquals(key, "tunnel") {
                    tunnel = try text(&scanner).flatMap { $0 == "no" ? nil : $0 }
                } else if scanner.spanEquals(key, "layer") {
                    layer = try number(&scanner)
                } else if scanner.spanEquals(key, "level") {
                    tags.level = try number(&scanner) ?? 0
                } else if scanner.spanEquals(key, "at_node") {
                    tags.atNode = try number(&scanner).flatMap { Int64(exactly: $0) }
                } else if scanner.spanEquals(key, "shared_nodes") {
                    tags.sharedNodes = try SharedNodes.read(&scanner)
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.next(close: 0x7D)
        } catch {
            return nil
        }
        guard isRoad else { return nil }
        tags.underground = tunnel.map { $0 != "building_passage" } ?? false
        tags.layer = layer ?? (bridge ? 1 : tags.underground ? -1 : 0)
        return tags
    }

    /// A string's text, or a number's as written (`"oneway": 1`); nil for anything else.
    private static func text(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> String? {
        if scanner.peek() == 0x22 { return try scanner.string(scanner.stringSpan()).lowercased() }
        if scanner.atNumber() {
            let value = try scanner.number()
            return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        try scanner.skipValue()
        return nil
    }

    /// A number, or a string holding one (`"layer": "-1"`); nil for anything else.
    private static func number(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Double? {
        if scanner.atNumber() { return try scanner.number() }
        if scanner.peek() == 0x22 { return Double(try scanner.string(scanner.stringSpan())) }
        try scanner.skipValue()
        return nil
    }
}

extension FenceSet {
    /// The road tags of fence `index`: nil unless it is a corridor whose properties have `highway`.
    /// Read from the properties at each call (nothing is kept per fence): a caller that asks often
    /// keeps the answers of the few roads near the receiver.
    public func road(_ index: Int) -> RoadTags? {
        guard kinds[index] == .corridor else { return nil }
        return properties.bytes(of: index).withUnsafeBufferPointer { RoadTags.read($0) }
    }
}
