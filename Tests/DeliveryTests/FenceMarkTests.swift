import Testing

@testable import Delivery
@testable import Fences

/// `"owntracks": true` and `"homeassistant": true` mark a fence; nothing else does (docs/mqtt.md).
@Suite struct FenceMarkTests {
    /// One circle a properties text, in order.
    func fences(_ properties: [String]) throws -> FenceSet {
        let features = properties.enumerated().map { index, extra in
            #"{"type":"Feature","id":\#(index),"geometry":{"type":"Point","coordinates":[2.35,48.85]},"#
                + #""properties":{"radius":50\#(extra)}}"#
        }
        return try FenceSet.parse(#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
    }

    @Test func onlyTheJSONTrueMarksAFence() throws {
        let set = try fences([
            #","owntracks":true"#,
            #","owntracks":false"#,
            #","owntracks":"yes""#,
            #","owntracks":1"#,
            #","owntracks":null"#,
            #","owntracks":[true]"#,
            #","note":"owntracks","nested":{"owntracks":true}"#,
            "",
            #","homeassistant":"true","owntracks":true"#,
            #","owntracks":true,"homeassistant":true"#,
            #","name":"a \"quoted\" name","owntracks" : true"#,
        ])
        #expect(FenceMark.ownTracks.indices(in: set) == [0, 8, 9, 10])
        #expect(FenceMark.homeAssistant.indices(in: set) == [9])
    }
}
