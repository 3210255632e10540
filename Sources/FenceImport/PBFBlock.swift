/// One PrimitiveBlock of an OSM PBF file: its string table (each string's index among the
/// import's tag keys found once), its coordinates' scale, and its groups of dense nodes, ways
/// and relations, decoded into an `OSMElement` one at a time.
struct PBFBlock {
    enum Outcome { case goOn, stop }

    private var strings: [UnsafeRawBufferPointer] = []
    /// For each string, its index among the keys asked for, or -1.
    private var keyIndex: [Int32] = []
    /// Some string of the table is a key asked for: without one, no element here has such a tag.
    private var hasWantedKey = false
    private var groups: [UnsafeRawBufferPointer] = []
    private var granularity: Int64 = 100
    private var latOffset: Int64 = 0
    private var lonOffset: Int64 = 0

    init(_ data: UnsafeRawBufferPointer, keys: OSMTagKeys) throws(Protobuf.Malformed) {
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            switch (number, wire) {
            case (1, 2):
                var table = Protobuf(try fields.bytes())
                while let (entry, entryWire) = try table.field() {
                    if entry == 1, entryWire == 2 {
                        strings.append(try table.bytes())
                    } else {
                        try table.skip(wire: entryWire)
                    }
                }
            case (2, 2): groups.append(try fields.bytes())
            case (17, 0): granularity = Int64(try fields.varint())
            case (19, 0): latOffset = Int64(bitPattern: try fields.varint())
            case (20, 0): lonOffset = Int64(bitPattern: try fields.varint())
            default: try fields.skip(wire: wire)
            }
        }
        if !keys.keys.isEmpty {
            keyIndex = strings.map { Int32(keys.index(of: $0) ?? -1) }
            hasWantedKey = keyIndex.contains { $0 >= 0 }
        }
    }

    /// Visits the elements of `kinds`; `.stop` once a pass of nodes alone has reached the ways.
    mutating func visit(_ kinds: OSMKinds, into element: OSMElement, visit: (OSMElement) throws -> Void) throws
        -> Outcome
    {
        for group in groups {
            var fields = Protobuf(group)
            while let (number, wire) = try fields.field() {
                switch (number, wire) {
                case (1, 2) where kinds.contains(.nodes):
                    try node(try fields.bytes(), into: element)
                    try visit(element)
                case (2, 2) where kinds.contains(.nodes):
                    // A pass that looks at tags only wants tagged nodes.
                    guard hasWantedKey else {
                        try fields.skip(wire: wire)
                        continue
                    }
                    try taggedDenseNodes(try fields.bytes(), into: element, visit: visit)
                case (3, 2), (4, 2):
                    if kinds == .nodes { return .stop }
                    let isWay = number == 3
                    guard kinds.contains(isWay ? .ways : .relations) else {
                        try fields.skip(wire: wire)
                        continue
                    }
                    if isWay {
                        try way(try fields.bytes(), into: element)
                    } else {
                        try relation(try fields.bytes(), into: element)
                    }
                    try visit(element)
                default:
                    try fields.skip(wire: wire)
                }
            }
        }
        return .goOn
    }

    private func degrees7(_ value: Int64, offset: Int64) -> Int64 {
        let nano = offset &+ granularity &* value
        return nano % 100 == 0 ? nano / 100 : Int64((Double(nano) / 100).rounded())
    }

    private func string(_ index: UInt64) throws(Protobuf.Malformed) -> String {
        guard index < UInt64(strings.count) else { throw Protobuf.Malformed() }
        return String(decoding: strings[Int(index)], as: UTF8.self)
    }

    private func addTag(key: UInt64, value: UInt64, to element: OSMElement) throws(Protobuf.Malformed) {
        guard !keyIndex.isEmpty else { return }
        guard key < UInt64(keyIndex.count) else { throw Protobuf.Malformed() }
        let index = keyIndex[Int(key)]
        if index >= 0 { element.tags.append((Int(index), try string(value))) }
    }

    /// The dense nodes that carry a tag asked for (the others are counted past).
    private func taggedDenseNodes(
        _ data: UnsafeRawBufferPointer, into element: OSMElement, visit: (OSMElement) throws -> Void
    ) throws {
        var columns = try DenseColumns(data)
        var id: Int64 = 0
        var lat: Int64 = 0
        var lon: Int64 = 0
        var matched: [(key: Int, value: UInt64)] = []
        while !columns.ids.atEnd {
            id &+= try columns.ids.signed()
            lat &+= try columns.lats.signed()
            lon &+= try columns.lons.signed()
            matched.removeAll(keepingCapacity: true)
            while !columns.tags.atEnd {
                let key = try columns.tags.varint()
                if key == 0 { break }
                let value = try columns.tags.varint()
                guard key < UInt64(keyIndex.count) else { throw Protobuf.Malformed() }
                let index = keyIndex[Int(key)]
                if index >= 0 { matched.append((Int(index), value)) }
            }
            if matched.isEmpty { continue }
            element.reset(.node)
            element.id = id
            element.lat7 = degrees7(lat, offset: latOffset)
            element.lon7 = degrees7(lon, offset: lonOffset)
            for (key, value) in matched { element.tags.append((key, try string(value))) }
            try visit(element)
        }
    }

    /// Every node's id and position, as plain numbers; `.stop` once the ways begin.
    mutating func locations(_ note: (_ id: Int64, _ lat7: Int64, _ lon7: Int64) -> Void) throws -> Outcome {
        let scratch = OSMElement()
        for group in groups {
            var fields = Protobuf(group)
            while let (number, wire) = try fields.field() {
                switch (number, wire) {
                case (1, 2):
                    try node(try fields.bytes(), into: scratch)
                    note(scratch.id, scratch.lat7, scratch.lon7)
                case (2, 2):
                    var columns = try DenseColumns(try fields.bytes())
                    var id: Int64 = 0
                    var lat: Int64 = 0
                    var lon: Int64 = 0
                    while !columns.ids.atEnd {
                        id &+= try columns.ids.signed()
                        lat &+= try columns.lats.signed()
                        lon &+= try columns.lons.signed()
                        note(id, degrees7(lat, offset: latOffset), degrees7(lon, offset: lonOffset))
                    }
                case (3, 2), (4, 2):
                    return .stop
                default:
                    try fields.skip(wire: wire)
                }
            }
        }
        return .goOn
    }

    private func node(_ data: UnsafeRawBufferPointer, into element: OSMElement) throws(Protobuf.Malformed) {
        element.reset(.node)
        var keys: [UInt64] = []
        var values: [UInt64] = []
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            switch (number, wire) {
            case (1, 0): element.id = try fields.signed()
            case (2, 2): keys = try Self.packed(try fields.bytes())
            case (3, 2): values = try Self.packed(try fields.bytes())
            case (8, 0): element.lat7 = degrees7(try fields.signed(), offset: latOffset)
            case (9, 0): element.lon7 = degrees7(try fields.signed(), offset: lonOffset)
            default: try fields.skip(wire: wire)
            }
        }
        for (key, value) in zip(keys, values) { try addTag(key: key, value: value, to: element) }
    }

    private func way(_ data: UnsafeRawBufferPointer, into element: OSMElement) throws(Protobuf.Malformed) {
        element.reset(.way)
        var keys = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))
        var values = keys
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            switch (number, wire) {
            case (1, 0): element.id = Int64(bitPattern: try fields.varint())
            case (2, 2): keys = Protobuf(try fields.bytes())
            case (3, 2): values = Protobuf(try fields.bytes())
            case (8, 2):
                var refs = Protobuf(try fields.bytes())
                var ref: Int64 = 0
                while !refs.atEnd {
                    ref &+= try refs.signed()
                    element.refs.append(ref)
                }
            default: try fields.skip(wire: wire)
            }
        }
        while !keys.atEnd { try addTag(key: try keys.varint(), value: try values.varint(), to: element) }
    }

    private func relation(_ data: UnsafeRawBufferPointer, into element: OSMElement) throws(Protobuf.Malformed) {
        element.reset(.relation)
        var keys = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))
        var values = keys
        var roles: [UInt64] = []
        var ids: [Int64] = []
        var types: [UInt64] = []
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            switch (number, wire) {
            case (1, 0): element.id = Int64(bitPattern: try fields.varint())
            case (2, 2): keys = Protobuf(try fields.bytes())
            case (3, 2): values = Protobuf(try fields.bytes())
            case (8, 2): roles = try Self.packed(try fields.bytes())
            case (9, 2):
                var members = Protobuf(try fields.bytes())
                var id: Int64 = 0
                while !members.atEnd {
                    id &+= try members.signed()
                    ids.append(id)
                }
            case (10, 2): types = try Self.packed(try fields.bytes())
            default: try fields.skip(wire: wire)
            }
        }
        guard roles.count == ids.count, types.count == ids.count else { throw Protobuf.Malformed() }
        for index in ids.indices {
            element.members.append(.init(isWay: types[index] == 1, ref: ids[index], role: try string(roles[index])))
        }
        while !keys.atEnd { try addTag(key: try keys.varint(), value: try values.varint(), to: element) }
    }

    private static func packed(_ bytes: UnsafeRawBufferPointer) throws(Protobuf.Malformed) -> [UInt64] {
        var reader = Protobuf(bytes)
        var values: [UInt64] = []
        while !reader.atEnd { values.append(try reader.varint()) }
        return values
    }
}

/// A DenseNodes message's columns: ids, latitudes and longitudes (each delta-coded) and the tags
/// (key and value string indexes, each node's ended by a 0).
struct DenseColumns {
    var ids = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))
    var lats = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))
    var lons = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))
    var tags = Protobuf(UnsafeRawBufferPointer(start: nil, count: 0))

    init(_ data: UnsafeRawBufferPointer) throws(Protobuf.Malformed) {
        var fields = Protobuf(data)
        while let (number, wire) = try fields.field() {
            switch (number, wire) {
            case (1, 2): ids = Protobuf(try fields.bytes())
            case (8, 2): lats = Protobuf(try fields.bytes())
            case (9, 2): lons = Protobuf(try fields.bytes())
            case (10, 2): tags = Protobuf(try fields.bytes())
            default: try fields.skip(wire: wire)
            }
        }
    }
}
