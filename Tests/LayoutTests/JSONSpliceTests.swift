import Foundation
import Testing

/// JSON is written only through the JSON writer (`Sources/JSONOutput`) and read only
/// by the JSON reader (`Sources/JSONInput`). Outside those two folders no source line may build
/// JSON text from string literals. A line (not a `//` comment) is refused when it holds:
/// - a literal that opens an object with a member: `"{\"` or the raw `#"{"`, or the raw `#"["`;
/// - a literal that begins with a member name and its colon: `"\"name\":`;
/// - a bracket literal joined to other text: `"[" +`, `"{" +`, `+ "]"`, `+ "}"`.
/// A message that quotes JSON to a person (`write it without quotes ("radius": 30)`) begins with
/// words and passes; so does a bracket inside interpolation (`"[\(id)]"`), which people read.
@Suite struct JSONSpliceTests {
    static let root = ModuleMapTests.root

    static var splice: Regex<AnyRegexOutput> {
        let patterns = [
            #""\{\\""#, ##"#"\{""##, ##"#"\[""##, #""\\"[A-Za-z_][A-Za-z0-9_]*\\":"#, #""[\[{]" *\+"#,
            #"\+ *"[\]}]""#,
        ]
        return try! Regex(patterns.joined(separator: "|"))
    }

    /// The folders that are the JSON writer and reader.
    static let jsonModules = ["Sources/JSONOutput/", "Sources/JSONInput/"]

    @Test func noSourceOutsideTheJSONModulesSplicesJSONFromLiterals() throws {
        var found: [String] = []
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let path = String(file.path.dropFirst(Self.root.path.count + 1))
            guard !Self.jsonModules.contains(where: path.hasPrefix) else { continue }
            let text = try String(contentsOf: file, encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where Self.splices(line) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(
            found.isEmpty,
            "JSON spliced from literals (write it through JSONBuffer or JSONLine):\n\(found.joined(separator: "\n"))")
    }

    /// The pattern refuses what it must and lets people's text pass.
    @Test func thePatternTellsSplicesFromMessages() {
        let spliced = [
            #"let payload = "{\"state\":" + quoted"#,
            #"var members = ["\"enable\":true"]"#,
            #"return "[" + objects.joined(separator: ",") + "]""#,
            ##"pending.append(contentsOf: Array(#"{"type":"FeatureCollection","features":["#.utf8))"##,
            #"line.addRaw("waypoints", json: list + "]")"#,
        ]
        let people = [
            #"throw error("radius \(text) is text: write it without quotes (\"radius\": 30)")"#,
            #"parts.append("\(name)[\(id)]")"#,
            #"return .problem("\"_type\" is not \"cmd\"")"#,
            #"// `{"anchor":true}`"#,
        ]
        for line in spliced { #expect(Self.splices(line[...]), "\(line)") }
        for line in people { #expect(!Self.splices(line[...]), "\(line)") }
    }

    static func splices(_ line: Substring) -> Bool {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return false }
        return line.contains(splice)
    }
}
