import FenceBuilders
import Testing

@testable import Fences

/// Heights in the forms signs and vehicle papers use (`--vehicle-height`, the `clearance` property).
@Suite struct HeightTests {
    /// Metres by hand: a foot is 0.3048 m, an inch 0.0254 m.
    @Test(arguments: [
        ("3.2", 3.2), ("3.2 m", 3.2), ("3.2m", 3.2), ("4 metres", 4.0), (" 3.20 ", 3.2),
        (#"10'6""#, 3.2004), ("10'", 3.048), ("10 ft", 3.048), ("10ft", 3.048), ("10 feet", 3.048),
        ("10 ft 6 in", 3.2004), ("10ft6in", 3.2004), ("10' 6\"", 3.2004), ("10'6", 3.2004),
        ("126 in", 3.2004), ("126\"", 3.2004), ("13'6\"", 4.1148), ("11\u{2032}6\u{2033}", 3.5052),
        ("10 FT 6 IN", 3.2004),
    ])
    func readsTheFormsSignsUse(text: String, metres: Double) throws {
        let read = try #require(Height.metres(text), "\(text)")
        #expect(abs(read - metres) < 1e-9, "\(text): \(read)")
    }

    @Test(arguments: [
        "", "m", "ft", "tall", "3,2", "-3.2", "0", "0 ft", "3.2.1", "3.2 km", "10'13\"", "10 ft 12 in", "10'6\"6",
        "10 ft 6 m", "3.2 m 10", "1e1", "10 feet six", "six feet", "10 in 6 ft", "nan", "inf",
    ])
    func refusesWhatIsNotAHeight(text: String) {
        #expect(Height.metres(text) == nil, "\(text)")
    }

    /// In a GeoJSON file: a number is metres, text is read as a sign; a bad one names the fence.
    @Test func theClearancePropertyTakesTextOrANumber() throws {
        func collection(_ clearance: String) -> String {
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"bridge","#
                + #""geometry":{"type":"Point","coordinates":[-83.75,42.28]},"#
                + #""properties":{"radius":12,"clearance":"# + clearance + "}}]}"
        }
        let feet = try FenceSet.parse(collection(#""10'6\"""#), file: "f.geojson")
        #expect(feet.settings(0).rules?.clearance.map { abs($0 - 3.2004) < 1e-9 } == true)
        let number = try FenceSet.parse(collection("3.2"), file: "f.geojson")
        #expect(number.settings(0).rules?.clearance == 3.2)
        let error = loadError(collection(#""low""#), file: "f.geojson")
        #expect(error?.contains("bridge") == true, "\(error ?? "")")
        #expect(error?.contains("clearance 'low' is not a height like 3.2") == true, "\(error ?? "")")
    }
}
