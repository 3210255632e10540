import Testing

@testable import FenceImport

/// Where imported roads meet: the nodes two or more ways pass through, and each way's vertices at
/// them.
@Suite struct OSMSharedNodesTests {
    @Test func aNodeIsSharedWhenTwoWaysPassThroughIt() {
        // Way a: 1 2 3; way b: 3 4 5 (joined at 3); c: a roundabout 6 7 8 6 (closing on 6, its own
        // node only); d: 9 2 10 (crossing a at 2).
        let refs: [Int64] = [1, 2, 3, 3, 4, 5, 6, 7, 8, 6, 9, 2, 10]
        let shared = OSMSharedNodes.shared(ways: [0..<3, 3..<6, 6..<10, 10..<13], refs: refs)
        #expect(shared == [2, 3])
        #expect(
            OSMSharedNodes.pairs(refs[0..<3], shared: shared).map { [$0.vertex, Int($0.node)] } == [[1, 2], [2, 3]])
        #expect(OSMSharedNodes.pairs(refs[3..<6], shared: shared).map { [$0.vertex, Int($0.node)] } == [[0, 3]])
        #expect(OSMSharedNodes.pairs(refs[6..<10], shared: shared).isEmpty)
    }
}
