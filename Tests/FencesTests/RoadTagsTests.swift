import Testing

@testable import Fences

/// What matching reads of a corridor's properties: a road is a corridor with `highway`; its one-way
/// direction and its height among the roads that cross it.
@Suite struct RoadTagsTests {
    static func tags(_ properties: String, geometry: String = #""type":"LineString","coordinates":[[8,47],[8.01,47]]"#)
        throws -> RoadTags?
    {
        let set = try FenceSet.parse(
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"r","geometry":{\#(geometry)},"#
                + #""properties":{"radius":5,\#(properties)}}]}"#)
        return set.road(0)
    }

    @Test func aCorridorIsARoadOnlyWithHighway() throws {
        #expect(try Self.tags(#""speed_limit_kmh":50"#) == nil)
        #expect(try Self.tags(#""highway":"primary""#) == RoadTags())
        #expect(try Self.tags(#""highway":null"#) == nil)
    }

    @Test func oneWayRoadsAreDrivenTheirTaggedWay() throws {
        #expect(try Self.tags(#""highway":"primary","oneway":"yes""#)?.direction == .forward)
        #expect(try Self.tags(#""highway":"primary","oneway":"-1""#)?.direction == .backward)
        #expect(try Self.tags(#""highway":"primary","oneway":-1"#)?.direction == .backward)
        #expect(try Self.tags(#""highway":"primary","oneway":"no""#)?.direction == .both)
        #expect(try Self.tags(#""highway":"primary","oneway":"reversible""#)?.direction == .both)
    }

    @Test func aBridgeIsAboveATunnelUnlessTheirLayersSayOtherwise() throws {
        #expect(try Self.tags(#""highway":"primary","bridge":"yes""#)?.layer == 1)
        #expect(try Self.tags(#""highway":"primary","tunnel":"yes""#)?.layer == -1)
        #expect(try Self.tags(#""highway":"primary","tunnel":"no""#)?.layer == 0)
        #expect(try Self.tags(#""highway":"primary","bridge":"yes","layer":2"#)?.layer == 2)
        #expect(try Self.tags(#""highway":"primary","tunnel":"yes","layer":"-2""#)?.layer == -2)
        let garage = try #require(try Self.tags(#""highway":"service","level":1"#))
        #expect(!garage.sameHeight(as: RoadTags()))
    }

    @Test func aBuildingsPassageIsAtTheStreetsLevelAndATunnelUnderground() throws {
        let passage = try #require(try Self.tags(#""highway":"unclassified","tunnel":"building_passage""#))
        #expect(passage.layer == 0 && !passage.underground)
        #expect(passage.sameHeight(as: RoadTags()))
        let tunnel = try #require(try Self.tags(#""highway":"service","tunnel":"yes""#))
        #expect(tunnel.layer == -1 && tunnel.underground)
        #expect(try Self.tags(#""highway":"service","bridge":"yes""#)?.underground == false)
    }

    @Test func roadsJoinWhereTheyShareAVertex() throws {
        let set = try FenceSet.parse(
            #"{"type":"FeatureCollection","features":["#
                + #"{"type":"Feature","id":"a","geometry":{"type":"LineString","coordinates":[[8,47],[8.01,47]]},"properties":{"radius":5}},"#
                + #"{"type":"Feature","id":"b","geometry":{"type":"LineString","coordinates":[[8.01,47],[8.01,47.01]]},"properties":{"radius":5}},"#
                + #"{"type":"Feature","id":"c","geometry":{"type":"LineString","coordinates":[[8.005,46.99],[8.005,47.01]]},"properties":{"radius":5}}"#
                + "]}")
        #expect(set.corridorsJoin(0, 1))
        // c crosses a without a vertex where they cross: a bridge over it, not a junction.
        #expect(!set.corridorsJoin(0, 2))
    }
}
