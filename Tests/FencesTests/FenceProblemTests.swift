import FenceBuilders
import Testing

@testable import Fences

/// A fence file's problem reaches the caller as a value, its place beside it; the words are made
/// from the value (LoaderErrorTests checks them).
@Suite struct FenceProblemTests {
    func problem(_ text: String, csv: Bool = false) -> FenceLoadError? {
        do {
            _ = try FenceSet.parse(text, file: "f", csv: csv)
            return nil
        } catch {
            return error
        }
    }

    @Test func aShapeProblemNamesThePartAndThePositions() throws {
        let open = polygonFeature(id: "\"p\"", rings: [[(0, 0), (1, 0), (1, 1), (0, 1)]])
        let error = try #require(problem(collection(open)))
        #expect(error.featureIndex == 0 && error.featureID == "\"p\"")
        guard case .shape(.ringNotClosed(.ring(part: nil, ring: 0), let first, let last)) = error.problem else {
            Issue.record("\(error.problem)")
            return
        }
        #expect(first == GeoPoint(lat: 0, lon: 0) && last == GeoPoint(lat: 1, lon: 0))

        let far = polygonFeature(id: "2", rings: [[(0, 0), (1, 0), (1, 95), (0, 0)]])
        guard
            case .shape(.latitude(.ring(part: nil, ring: 0), position: 2, 95)) = try #require(problem(collection(far)))
                .problem
        else {
            Issue.record("not the third position's latitude")
            return
        }
    }

    @Test func aPropertyProblemWaitsForTheIdAndKeepsItsKey() throws {
        let feature = circleFeature(id: "\"a\"", lon: 1, lat: 2, radius: 10, extra: #","dwell":"long""#)
        let error = try #require(problem(collection(feature)))
        #expect(error.featureID == "\"a\"")
        guard
            case .property(.notANonNegativeNumber(key: "dwell", written: "'\"long\"'", unit: "seconds")) = error.problem
        else {
            Issue.record("\(error.problem)")
            return
        }
        let rule = circleFeature(id: "1", lon: 1, lat: 2, radius: 10, extra: #","speed_limit":-5"#)
        guard case .property(.outOfRange) = try #require(problem(collection(rule))).problem else {
            Issue.record("a negative speed limit is not refused as out of range")
            return
        }
    }

    @Test func aCSVLinesProblemIsTheCirclesOnItsLine() throws {
        let csv = "id,lat,lon,radius\na,1,2,10\nb,north,2,10\n"
        let error = try #require(problem(csv, csv: true))
        #expect(error.featureIndex == 1 && error.featureID == "\"b\"")
        guard case .onLine(3, .cellNotANumber(column: "lat", written: "north")) = error.problem else {
            Issue.record("\(error.problem)")
            return
        }
        let duplicate = try #require(problem("id,lat,lon,radius\na,1,2,10\na,1,2,10\n", csv: true))
        guard case .onLine(3, .duplicateID("\"a\"", firstFeature: 0)) = duplicate.problem else {
            Issue.record("\(duplicate.problem)")
            return
        }
        let header = try #require(problem("name;place\nx;y\n", csv: true))
        guard case .csvHeader(line: 1, written: "name;place", .missing(.lat), oneColumn: false) = header.problem else {
            Issue.record("\(header.problem)")
            return
        }
    }
}
