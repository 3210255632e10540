import Testing

@testable import FenceImport

@Suite struct NodeLocationsTests {
    /// Only the needed ids are kept; a file in id order and one out of order find the same.
    @Test(arguments: [false, true])
    func neededNodesAreFoundInAnyOrder(shuffled: Bool) {
        var needed: [Int64] = [30, 10, 30, 20, 50]
        var locations = NodeLocations(needing: &needed)
        #expect(locations.ids == [10, 20, 30, 50])
        var nodes: [Int64] = Array(1...60)
        if shuffled { nodes.reverse() }
        for id in nodes where id != 50 { locations.note(id: id, lat7: id * 10_000_000, lon7: -id) }
        #expect(locations.position(of: 20) == Position(lon: -0.000002, lat: 20))
        #expect(locations.position(of: 30) == Position(lon: -0.000003, lat: 30))
        #expect(locations.position(of: 50) == nil)
        #expect(locations.position(of: 11) == nil)
    }

    /// Member ways joined end to end, in any direction, into closed rings.
    @Test func ringsCloseFromWaysInAnyDirection() {
        #expect(RingAssembly.rings([[1, 2, 3], [1, 4, 3]]) == [[1, 2, 3, 4, 1]])
        #expect(
            RingAssembly.rings([[1, 2, 3, 1], [5, 6], [7, 6], [7, 8, 5]]) == [[1, 2, 3, 1], [5, 6, 7, 8, 5]])
        #expect(RingAssembly.rings([[1, 2, 3], [3, 4]]) == nil)
    }
}
