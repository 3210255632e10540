import FenceBuilders
import Foundation
import Testing

@testable import Fences

/// `check --points` input (docs/formats.md): plain byte parsing, every number the correctly rounded
/// double, bad lines named by number.
@Suite struct PointsFileTests {
    func parse(_ text: String) throws(PointsFileError) -> [GeoPoint] {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { (b) throws(PointsFileError) in try PointsFile.parse(b, name: "p.csv")
        }
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func linesCommentsBlanksAndLineEnds() throws {
        let points = try parse("# header comment\n41.88,-87.63\r\n\n  -33.5 ,\t151.25 \n\r\n0,0")
        #expect(
            points == [GeoPoint(lat: 41.88, lon: -87.63), GeoPoint(lat: -33.5, lon: 151.25), GeoPoint(lat: 0, lon: 0)])
        #expect(try parse("").isEmpty)
        #expect(try parse("\n\n# only comments\n").isEmpty)
    }

    @Test func everyNumberIsTheCorrectlyRoundedDouble() throws {
        // Swift's Double(String) rounds correctly (as strtod and Python's float() do): the reference.
        var random = SeededGenerator(seed: 7)
        var lines: [String] = []
        var expected: [GeoPoint] = []
        let forms = ["%.8f", "%.7f", "%.17f", "%.3f", "%.0f", "%.12e", "%.20f"]
        for i in 0..<5000 {
            let lat = Double(random.next() % 180_000_000_000) / 1e9 - 90
            let lon = Double(random.next() % 360_000_000_000) / 1e9 - 180
            let form = forms[i % forms.count]
            let a = String(format: form, lat)
            let b = String(format: form, lon)
            lines.append(a + "," + b)
            expected.append(GeoPoint(lat: Double(a)!, lon: Double(b)!))
        }
        // the hard cases: more than 19 significant digits, halfway points, signs, no integer part
        for (a, b) in [
            ("41.123456789012345678901", "-87.99999999999999999999"), ("0.1", "+.5"), ("-0", "5."),
            ("89.999999999999994315658113919198513031005859375", "1e-5"),
            ("9007199254740993e-15", "-179.99999999999997"),
        ] {
            lines.append(a + "," + b)
            expected.append(GeoPoint(lat: Double(a)!, lon: Double(b)!))
        }
        let points = try parse(lines.joined(separator: "\n") + "\n")
        #expect(points.count == expected.count)
        for (p, e) in zip(points, expected) {
            #expect(p.lat.bitPattern == e.lat.bitPattern && p.lon.bitPattern == e.lon.bitPattern, "\(p) vs \(e)")
        }
    }

    @Test func badLinesAreNamedByNumber() {
        #expect(error("1,2\n41.9;-87.6\n") == "p.csv: line 2: want 'lat,lon', found '41.9;-87.6'")
        #expect(error("# c\n\n1,2,3\n") == "p.csv: line 3: want 'lat,lon', found '1,2,3'")
        #expect(error("1,\n") == "p.csv: line 1: want 'lat,lon', found '1,'")
        #expect(error("abc,1\r\n") == "p.csv: line 1: want 'lat,lon', found 'abc,1'")
        #expect(
            error("1,2\n1,2\n91,0\n")
                == "p.csv: line 3: point (91.0, 0.0) is out of range (latitude -90..90, longitude -180..180)")
        #expect(error("0,180.0000001\n")?.hasPrefix("p.csv: line 1: point (0.0, 180.0000001) is out of range") == true)
        #expect(error("1e999,0\n")?.contains("out of range") == true)
        #expect(error("nan,0\n") == "p.csv: line 1: want 'lat,lon', found 'nan,0'")
    }
}
