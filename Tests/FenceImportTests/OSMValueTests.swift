import Testing

@testable import FenceImport

/// The `maxheight` and `maxspeed` forms of the OSM wiki, each read by hand: feet are 0.3048 m,
/// inches 0.0254 m, a mile 1.609344 km, a knot 1.852 km/h.
@Suite struct OSMValueTests {
    @Test(arguments: [
        ("3.5", 3.5), ("3.5 m", 3.5), ("3.5m", 3.5), ("3,5", 3.5), (" 4 ", 4.0),
        ("11'6\"", 3.5052), ("11' 6\"", 3.5052), ("12'", 3.6576), ("12 ft", 3.6576), ("11 ft 6 in", 3.5052),
        ("10\u{2032}6\u{2033}", 3.2004), ("13'0''", 3.9624),
    ])
    func heightsInEveryWrittenForm(text: String, metres: Double) throws {
        guard case .value(let read) = MaxHeight.read(text) else {
            Issue.record("\(text) not read")
            return
        }
        #expect(abs(read - metres) < 1e-9, "\(text): \(read)")
    }

    @Test(arguments: ["default", "none", "below_default", "no_sign", "no_indications"])
    func heightWordsAreSkippedByName(word: String) {
        #expect(MaxHeight.read(word) == .skipped(reason: "maxheight=\(word)", example: nil))
    }

    @Test(arguments: ["3.5 meters", "tall", "-3", "3.5.1", "12'13\"", ""])
    func unreadableHeightsAreSkippedWithTheirText(text: String) {
        #expect(MaxHeight.read(text) == .skipped(reason: "unreadable maxheight", example: text))
    }

    @Test(arguments: [
        ("50", 50.0), ("50 km/h", 50), ("30 mph", 48.28032), ("30mph", 48.28032), ("10 knots", 18.52),
        ("walk", 7), ("DE:urban", 50), ("DE:rural", 100), ("FR:rural", 80), ("GB:nsl_single", 96.56064),
        ("GB:nsl_dual", 112.65408), ("GB:motorway", 112.65408), ("AT:urban", 50), ("AT:rural", 100),
        ("CH:urban", 50), ("CH:rural", 80), ("CH:motorway", 120), ("IT:rural", 90), ("NL:rural", 80),
        ("DE:zone30", 30), ("DE:zone:30", 30), ("GB:zone20", 32.18688),
    ])
    func speedsInEveryWrittenForm(text: String, kmh: Double) {
        guard case .value(let read) = MaxSpeed.read(text) else {
            Issue.record("\(text) not read")
            return
        }
        #expect(abs(read - kmh) < 1e-9, "\(text): \(read)")
    }

    @Test func speedWordsAndUnknownCodesAreSkipped() {
        #expect(MaxSpeed.read("none") == .skipped(reason: "maxspeed=none", example: nil))
        #expect(MaxSpeed.read("signals") == .skipped(reason: "maxspeed=signals", example: nil))
        #expect(MaxSpeed.read("variable") == .skipped(reason: "maxspeed=variable", example: nil))
        #expect(MaxSpeed.read("DE:motorway") == .skipped(reason: "maxspeed=DE:motorway (no limit)", example: nil))
        #expect(MaxSpeed.read("XX:urban") == .skipped(reason: "unknown maxspeed code", example: "XX:urban"))
        #expect(MaxSpeed.read("50;30") == .skipped(reason: "unreadable maxspeed", example: "50;30"))
        #expect(MaxSpeed.read("fast") == .skipped(reason: "unreadable maxspeed", example: "fast"))
    }

    @Test func selectionsAndBoxesParse() {
        #expect(
            TagSelection(parsing: "amenity=school,kindergarten")
                == TagSelection(key: "amenity", values: ["school", "kindergarten"]))
        #expect(TagSelection(parsing: "barrier") == TagSelection(key: "barrier", values: nil))
        #expect(TagSelection(parsing: "=school") == nil)
        #expect(TagSelection(parsing: "amenity=") == nil)
        #expect(BoundingBox(parsing: "47,8,48,9") != nil)
        #expect(BoundingBox(parsing: "48,8,47,9") == nil)
        #expect(BoundingBox(parsing: "47,8,48") == nil)
    }
}
