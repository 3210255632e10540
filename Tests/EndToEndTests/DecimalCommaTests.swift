import Foundation
import Testing

/// A decimal comma on the command line reads as the fence imports read it, in every option that
/// takes a number with a fraction; a number with a thousands separator in it is refused, not
/// misread (docs/running.md, "Limits of the numbers").
@Suite struct DecimalCommaTests {
    static let capture = "captures/gym/capture.nmea"
    static let fences = "captures/gym/fences.geojson"

    /// `fences import --radius 12,5` writes circles of 12.5 m.
    @Test func anImportsRadiusTakesADecimalComma() throws {
        let folder = temporaryDirectory()
        let source = folder.appendingPathComponent("depot.gpx")
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="47.1" lon="8.1"><name>Depot</name></wpt>
        </gpx>
        """.write(to: source, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("depot.geojson")
        let result = try runGPSFence(["fences", "import", source.path, "--radius", "12,5", "--output", output.path])
        #expect(result.status == 0, "\(result.stderr)")
        let collection = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        let feature = try #require((collection?["features"] as? [[String: Any]])?.first, "\(collection ?? [:])")
        #expect((feature["properties"] as? [String: Any])?["radius"] as? Double == 12.5, "\(feature)")
    }

    /// The settings of `replay` with decimal commas give the events they give with points.
    @Test func replaySettingsWithDecimalCommasAreTheSameAsWithPoints() throws {
        func replay(_ settings: [String]) throws -> CommandResult {
            try runGPSFence(["replay", Self.capture, "--fences", Self.fences, "--json"] + settings)
        }
        let points = try replay([
            "--hysteresis", "7.5", "--max-accuracy", "50.5", "--max-speed", "40.5", "--approach", "80.5", "--dwell",
            "0.5m", "--stale", "12.5",
        ])
        let commas = try replay([
            "--hysteresis", "7,5", "--max-accuracy", "50,5", "--max-speed", "40,5", "--approach", "80,5", "--dwell",
            "0,5m", "--stale", "12,5",
        ])
        #expect(points.status == 0, "\(points.stderr)")
        #expect(commas.status == 0, "\(commas.stderr)")
        #expect(types(commas.stdout.split(separator: "\n").map(String.init)).contains("dwell"), "\(commas.stdout)")
        #expect(commas.stdout == points.stdout)
    }

    /// A comma and a point, or two commas: one of them is a thousands separator, and which one
    /// cannot be known. Refused with exit status 2, naming the option, the value and what to write.
    @Test func aNumberWithAThousandsSeparatorIsRefused() throws {
        let state = temporaryDirectory().appendingPathComponent("state.sqlite").path
        let cases: [([String], String, String)] = [
            (
                ["run", "--device", "/dev/null", "--state", state, "--anchor", "1,234.5"], "--anchor <metres>",
                "1234.5"
            ),
            (["replay", Self.capture, "--fences", Self.fences, "--hysteresis", "1.234,5"], "--hysteresis", "1234.5"),
            (["simulate", Self.capture, "--speed", "1,234,5"], "--speed", "1234.5"),
            (["replay", Self.capture, "--fences", Self.fences, "--dwell", "1,234.5s"], "--dwell", "1234.5"),
        ]
        for (arguments, option, meant) in cases {
            let result = try runGPSFence(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(option), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("a thousands separator is not read"), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("e.g. \(meant)"), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: state), "refused before the run started")
    }
}
