import Testing

@testable import FenceImport

/// KML coordinates read over bytes give the doubles Swift's own `Double(String)` reads from the same
/// text, and refuse what is not `lon,lat[,altitude]`.
@Suite struct CoordinatesTextTests {
    static func read(_ text: String) -> Result<[Position], CoordinatesText.Refused> {
        var copy = text
        return CoordinatesText.positions(&copy)
    }

    @Test func numbersAsSwiftReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var texts: [(String, String)] = []
        for _ in 0..<5000 {
            let lon = Double.random(in: -180...180, using: &generator)
            let lat = Double.random(in: -90...90, using: &generator)
            let digits = Int.random(in: 0...17, using: &generator)
            func written(_ value: Double) -> String {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: return "\(value)"
                case 1: return String(Int(value))
                case 2:
                    let plain = "\(value * 100)"
                    return plain.contains("e") ? plain : plain + "E-2"
                default:
                    let scale = Self.pow10(digits)
                    return "\((value * scale).rounded() / scale)"
                }
            }
            texts.append((written(lon), written(lat)))
        }
        let text = texts.map { "\($0.0),\($0.1),12.5" }.joined(separator: Bool.random() ? "\n\t" : " ")
        let positions = try Self.read(text).get()
        #expect(positions.count == texts.count)
        for (position, (lon, lat)) in zip(positions, texts) {
            #expect(position.lon == Double(lon), "\(lon)")
            #expect(position.lat == Double(lat), "\(lat)")
        }
    }

    @Test func formsAKMLFileHas() throws {
        let positions = try Self.read("  \r\n 7.25,43.5 +7.5,-43.25,0\t.5,5.,  -180,90,  ").get()
        #expect(positions.map(\.lon) == [7.25, 7.5, 0.5, -180])
        #expect(positions.map(\.lat) == [43.5, -43.25, 5, 90])
        #expect(try Self.read("").get().isEmpty)
        #expect(try Self.read(" \n ").get().isEmpty)
    }

    @Test(arguments: [
        "7.25", "7.25,", ",43.5", "7.25,43.5,0,1", "7.25;43.5", "180.5,0", "0,90.01", "1e,2", "0x1p3,2",
        "nan,1", "inf,1", "7.25,,43.5", "seven,43.5", "7.25 ,43.5",
    ])
    func refused(tuple: String) {
        switch Self.read("1,2 \(tuple) 3,4") {
        case .success(let positions): Issue.record("read \(positions)")
        case .failure(let refused):
            #expect(tuple.split(separator: " ").contains { Substring(refused.tuple) == $0 })
        }
    }

    static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }
}
