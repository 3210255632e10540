import Fences
import Foundation
import Testing

@testable import Views

/// The live view's reader, without the binary: the fence ahead on the course, and the fence file
/// read again when it is replaced.
@Suite struct WatchTests {
    /// Metres of latitude per degree, for placing fences north and south of the receiver.
    static let metresPerDegree = 111_195.0

    static func circles(_ fences: [(id: String, northMetres: Double)]) -> String {
        let features = fences.map { fence in
            let lat = 47 + fence.northMetres / metresPerDegree
            return """
                {"type":"Feature","id":"\(fence.id)","geometry":{"type":"Point","coordinates":[8.0,\(lat)]},"properties":{"radius":30}}
                """
        }
        return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    }

    /// A fence 500 m north (radius 30 m) is 470 m ahead when heading north at 10 m/s, 47 s away;
    /// heading south the one 300 m south is ahead; heading east nothing is.
    @Test func theFenceAheadIsTheOneOnTheCourse() throws {
        let set = try FenceSet.parse(Self.circles([("north", 500), ("south", -300)]))
        let north = try #require(WatchReader.ahead(set, lat: 47, lon: 8, course: 0, speed: 10))
        #expect(north.id == "north")
        #expect(abs(north.distance - 470) < 2, "\(north.distance)")
        #expect(abs((north.eta ?? 0) - 47) < 0.3)
        let south = try #require(WatchReader.ahead(set, lat: 47, lon: 8, course: 180, speed: 10))
        #expect(south.id == "south" && abs(south.distance - 270) < 2, "\(south)")
        #expect(WatchReader.ahead(set, lat: 47, lon: 8, course: 90, speed: 10) == nil)
    }

    /// A fence beyond the look-ahead (10 km) is not ahead, however straight the course.
    @Test func aFenceBeyondTheLookAheadIsNotAhead() throws {
        let set = try FenceSet.parse(Self.circles([("far", 12_000)]))
        #expect(WatchReader.ahead(set, lat: 47, lon: 8, course: 0, speed: 10) == nil)
    }

    /// The reader keeps the fence set between frames, and reads the file again once an editor's
    /// save (a new file renamed over the old name) has replaced it.
    @Test func aReplacedFenceFileIsReadAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-watch-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("fences.geojson").path
        try Self.circles([("a", 100)]).write(toFile: path, atomically: true, encoding: .utf8)
        let reader = WatchReader(statePath: folder.appendingPathComponent("state.db").path)
        #expect(reader.fenceSet(path)?.count == 1)
        #expect(reader.fenceSet(path)?.count == 1)
        try Self.circles([("a", 100), ("b", 200)]).write(toFile: path, atomically: true, encoding: .utf8)
        #expect(reader.fenceSet(path)?.count == 2)
        #expect(reader.fenceSet(nil) == nil && reader.fenceSet("") == nil)
    }
}
