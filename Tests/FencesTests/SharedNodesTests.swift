import Testing

@testable import Fences

/// Where roads join (docs/fences.md, "The road being driven"): roads that carry `shared_nodes` (as
/// `fences import` writes them) join at a node both list and nowhere else; roads drawn by hand
/// join where they share a vertex's position.
@Suite struct SharedNodesTests {
    static func road(_ id: String, _ coordinates: String, _ properties: String) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"LineString","coordinates":\#(coordinates)},"#
            + #""properties":{"radius":5,"highway":"primary"\#(properties)}}"#
    }

    static func set(_ features: [String]) throws -> FenceSet {
        try FenceSet.parse(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
    }

    /// A bridge east-west and the street under it north-south, each drawn with a vertex at
    /// (8.005, 47) but through different nodes (11 on the bridge, 21 on the street), and a side
    /// road from the bridge's east end (node 12, shared).
    static let crossing = [
        road("bridge", "[[8,47],[8.005,47],[8.01,47]]", #","bridge":"yes","shared_nodes":[[2,12]]"#),
        road("street", "[[8.005,46.995],[8.005,47],[8.005,47.005]]", #","shared_nodes":[]"#),
        road("side", "[[8.01,47],[8.01,47.005]]", #","shared_nodes":[[0,12]]"#),
    ]

    @Test func roadsWithSharedNodesJoinOnlyAtANodeBothList() throws {
        let set = try Self.set(Self.crossing)
        #expect(set.road(0)?.sharedNodes == SharedNodes(vertices: [2], nodes: [12]))
        #expect(set.road(1)?.sharedNodes == SharedNodes(vertices: [], nodes: []))
        #expect(!set.corridorsJoin(0, 1), "a vertex at the same place, no node in common")
        #expect(set.corridorsJoin(0, 2))
        #expect(set.corridorsJoin(2, 0))
        #expect(!set.corridorsJoin(1, 2))
        // The same roads drawn by hand, without shared_nodes: a vertex in common is a join.
        let drawn = try Self.set([
            Self.road("bridge", "[[8,47],[8.005,47],[8.01,47]]", ""),
            Self.road("street", "[[8.005,46.995],[8.005,47],[8.005,47.005]]", ""),
        ])
        #expect(drawn.corridorsJoin(0, 1))
    }

    @Test func aNodeIsFoundByItsVertexAndAVertexByItsNode() {
        let nodes = SharedNodes(vertices: [0, 4, 9], nodes: [70, 71, 72])
        #expect(nodes.node(atVertex: 4) == 71)
        #expect(nodes.node(atVertex: 5) == nil)
        #expect(nodes.vertex(ofNode: 72) == 9)
        #expect(nodes.vertex(ofNode: 73) == nil)
        #expect(nodes.meets(SharedNodes(vertices: [3], nodes: [72])))
        #expect(!nodes.meets(SharedNodes(vertices: [3], nodes: [73])))
    }

    @Test(arguments: [
        #""shared_nodes":"12""#, #""shared_nodes":[[2]]"#, #""shared_nodes":[[2,12,13]]"#,
        #""shared_nodes":[[-1,12]]"#, #""shared_nodes":[[1.5,12]]"#, #""shared_nodes":[[2,0]]"#,
        #""shared_nodes":[[2,12],[1,13]]"#, #""shared_nodes":[[2,"12"]]"#,
    ])
    func aMalformedListRefusesTheFile(property: String) {
        #expect {
            try Self.set([Self.road("r", "[[8,47],[8.005,47],[8.01,47]]", "," + property)])
        } throws: { error in
            "\(error)".contains("shared_nodes") && "\(error)".contains("must be a list of [vertex index, OSM node id]")
        }
    }
}
