import Foundation
import Receivers
import Testing

/// Satellites used from gpsd's SKY reports: `uSat`, else the satellites marked `"used": true`.
/// Checked against every SKY line of gpsd's own regression output, decoded separately with
/// Foundation's JSONSerialization (test only).
@Suite struct GpsdSkyTests {
    func scan(_ text: String) -> GpsdReport? {
        let bytes = Array(text.utf8)
        let line = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        line.copyBytes(from: bytes)
        return GpsdReport(UnsafeRawBufferPointer(line))
    }

    @Test func everySKYLineOfTheGpsdRegressionOutputGivesItsSatellitesUsed() throws {
        let folder = GpsdReportTests.capturesFolder
        var skies = 0
        var problems: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".chk") {
            let text = try String(decoding: Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"SKY\"") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    continue
                }
                skies += 1
                let listed = (object["satellites"] as? [[String: Any]]).map { satellites in
                    satellites.filter { ($0["used"] as? NSNumber)?.boolValue == true }.count
                }
                let expected = (object["uSat"] as? NSNumber)?.intValue ?? listed
                let report = scan(String(line))
                if report?.reportClass != .sky || report?.satellitesUsed != expected {
                    problems.append(
                        "\(file): \(String(describing: report?.satellitesUsed)) != \(String(describing: expected))")
                }
            }
        }
        #expect(skies > 100, "\(skies)")
        #expect(problems.isEmpty, "\(problems.count) differences, first: \(problems.prefix(5))")
    }

    @Test func usedSatellitesWithoutUSatAndNothingForOtherReports() {
        let sky = scan(
            #"{"class":"SKY","satellites":[{"PRN":1,"used":true},{"PRN":2,"used":false},{"PRN":3,"used":true}]}"#)
        #expect(sky?.satellitesUsed == 2)
        #expect(scan(#"{"class":"SKY","uSat":7,"satellites":[{"PRN":1,"used":true}]}"#)?.satellitesUsed == 7)
        #expect(scan(#"{"class":"SKY","hdop":1.2}"#)?.satellitesUsed == nil)
        #expect(scan(#"{"class":"TPV","mode":3,"uSat":9}"#)?.satellitesUsed == nil)
    }
}
