import Foundation
import Testing

/// Files of the wrong kind are told by their content, named for what they are, and answered with
/// what to do: no silence, no parser's complaint, exit status 2.
@Suite struct FileKindTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="phone"><trk><trkseg>
        <trkpt lat="53.8014" lon="-1.5487"><time>2026-02-03T10:15:00Z</time></trkpt>
        <trkpt lat="53.8015" lon="-1.5487"><time>2026-02-03T10:15:01Z</time></trkpt>
        </trkseg></trk></gpx>
        """
    static let kml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Home</name>
        <Point><coordinates>-1.5487,53.8014,0</coordinates></Point></Placemark></Document></kml>
        """

    func file(_ name: String, _ text: String) throws -> String {
        let url = temporaryDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func aGPXTrackIsNotACapture() throws {
        let commute = try file("commute.txt", Self.gpx)  // by content, whatever the name
        for command in [["replay", commute, "--fences", "captures/gym/fences.geojson"], ["decode", commute]] {
            let result = try runGPSFence(command)
            #expect(result.status == 2, "\(command)")
            #expect(result.stderr.contains("'\(commute)' is a GPX track, not an NMEA capture"), "\(result.stderr)")
            #expect(result.stderr.contains("gpsfence simulate \(commute)"))
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func inputWithNoNMEAAtAllIsAnError() throws {
        let notes = try file("notes.nmea", "shopping list\neggs\nmilk\n")
        let replay = try runGPSFence(["replay", notes, "--fences", "captures/gym/fences.geojson"])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("no NMEA sentences in '\(notes)' (24 bytes)"), "\(replay.stderr)")
        let decode = try runGPSFence(["decode", "--stats", notes])
        #expect(decode.status == 2)
        #expect(decode.stderr.contains(": 0 fixes"), "the statistics still say what was found")
        #expect(decode.stderr.contains("no NMEA sentences in '\(notes)'"))
        let empty = try runGPSFence(["decode", "-"], stdin: Data())
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("'<stdin>' is empty"), "\(empty.stderr)")
        // A capture with damaged sentences is still NMEA: decoded, not refused.
        let damaged = try runGPSFence(["decode", "captures/damaged/capture.nmea"])
        #expect(damaged.status == 0)
    }

    @Test func aCaptureIsNotADevice() throws {
        let run = try BackgroundGPSFence([
            "run", "--device", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson",
        ])
        let result = run.finish(timeout: 15)
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("--device captures/gym/capture.nmea: this is an NMEA capture, not a device"),
            "\(result.stderr)")
        #expect(result.stderr.contains("gpsfence replay captures/gym/capture.nmea"))
    }

    @Test func aKMLFileIsNeitherFencesNorARoute() throws {
        let places = try file("places.kml", Self.kml)
        let check = try runGPSFence(["check", "--fences", places, "53.8", "-1.5"])
        #expect(check.status == 2)
        #expect(check.stderr.contains("this is KML"), "\(check.stderr)")
        #expect(check.stderr.contains("gpsfence fences import \(places) --output fences.geojson"), "\(check.stderr)")
        #expect(!check.stderr.contains("malformed JSON"))
        let simulate = try runGPSFence(["simulate", places])
        #expect(simulate.status == 2)
        #expect(simulate.stderr.contains("this is KML"), "\(simulate.stderr)")
        #expect(!simulate.stderr.contains("no points"))
        let missing = try runGPSFence(["simulate", "/nonexistent/nosuch.gpx"])
        #expect(missing.stderr.contains("cannot read route '/nonexistent/nosuch.gpx': No such file or directory"))
    }
}
