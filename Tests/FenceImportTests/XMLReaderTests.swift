import Foundation
import Testing

@testable import FenceImport

/// The streaming XML reader on files written here, read with a chunk far smaller than the file so
/// that every token crosses a chunk's end somewhere.
@Suite struct XMLReaderTests {
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "xmlreader-\(UUID().uuidString).xml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Every start tag's name with its attributes, and every text, in order.
    static func tokens(_ path: String, chunk: Int) throws -> [String] {
        let reader = XMLReader(source: try ByteSource(path: path), chunk: chunk)
        var out: [String] = []
        while true {
            switch try reader.next() {
            case .endOfFile: return out
            case .start:
                let attributes = reader.attributes.map { reader.string($0.key) + "=" + reader.string($0.value) }
                out.append(
                    ([reader.string(reader.name)] + attributes).joined(separator: " ") + (reader.selfClosing ? "/" : "")
                )
            case .end: out.append("/" + reader.string(reader.name))
            case .text: out.append("'" + reader.string(reader.text) + "'")
            }
        }
    }

    @Test(arguments: [7, 16, 1 << 20])
    func tokensSurviveAnyChunkSize(chunk: Int) throws {
        let path = try Self.file(
            """
            <?xml version="1.0"?>
            <!-- a comment with <tags> inside -->
            <kml a='1' b="x &gt; y &amp; &#233;&#x41;">
              <name>Bridge &lt;low&gt;</name>
              <description><![CDATA[<b>10'6"</b>]]></description>
              <empty   x = "1" />
            </kml>
            """)
        #expect(
            try Self.tokens(path, chunk: chunk) == [
                "kml a=1 b=x > y & éA", "name", "'Bridge <low>'", "/name", "description", "'<b>10'6\"</b>'",
                "/description", "empty x=1/", "/kml",
            ])
    }

    @Test(arguments: [
        ("<osm>\n<node id=\"1\">\n</osm>", 3, 1, XMLProblem.mismatchedClose(name: "osm", expected: "node")),
        ("<osm>\n  <node id=\"1\"", 2, 3, .endsInsideTag),
        ("<osm>\n<way id=\"2\">\n", 3, 1, .endsInsideElement(name: "way")),
        ("<osm>\n<node id=\"1\" lat=5>", 2, 14, .attributeValueWithoutQuotes),
    ])
    func brokenFilesAreRefusedWithWhere(text: String, line: Int, column: Int, problem: XMLProblem) throws {
        let path = try Self.file(text)
        do {
            _ = try Self.tokens(path, chunk: 8)
            Issue.record("read \(text)")
        } catch let error as ImportError {
            #expect(error.file == path)
            #expect(error.place == .line(line, column: column), "\(error)")
            #expect(error.problem == .xml(problem), "\(error)")
        }
    }

    /// OSM coordinates to ten-millionths, rounded half away from zero; not a number: nil.
    @Test func degreesAsTenMillionths() throws {
        let path = try Self.file(#"<a v1="47.1234567" v2="-8.00000005" v3="0.1" v4="12" v5="1e3" v6="-"/>"#)
        let reader = XMLReader(source: try ByteSource(path: path))
        try reader.next()
        #expect(reader.attribute("v1").flatMap(reader.degrees7) == 471_234_567)
        #expect(reader.attribute("v2").flatMap(reader.degrees7) == -80_000_001)
        #expect(reader.attribute("v3").flatMap(reader.degrees7) == 1_000_000)
        #expect(reader.attribute("v4").flatMap(reader.degrees7) == 120_000_000)
        #expect(reader.attribute("v5").flatMap(reader.degrees7) == nil)
        #expect(reader.attribute("v6").flatMap(reader.degrees7) == nil)
    }
}
