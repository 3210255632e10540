import Foundation
import Testing

@testable import Delivery

/// `--webhook-header` and `--sync-header` (docs/running.md): one parser for both.
@Suite struct HTTPHeaderTests {
    func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-header-\(UUID().uuidString)")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func inlineValue() throws {
        let header = try HTTPHeader.parse("Authorization:  Bearer abc ", option: "--sync-header")
        #expect(header == HTTPHeader(name: "Authorization", value: "Bearer abc"))
        #expect(try HTTPHeader.parse("X-Empty:", option: "--sync-header").value == "")
    }

    @Test func valueFromTheFirstLineOfAFile() throws {
        let path = try file("Bearer from-file\r\nsecond line\n")
        let header = try HTTPHeader.parse("Authorization: @\(path)", option: "--sync-header")
        #expect(header.value == "Bearer from-file")
    }

    @Test func doubledAtIsALiteralAt() throws {
        #expect(try HTTPHeader.parse("Title: @@home", option: "--webhook-header").value == "@home")
    }

    @Test func badHeadersNameTheOptionAndTheProblem() {
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("no colon", option: "--sync-header") }
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("Bad Name: x", option: "--sync-header") }
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse(": x", option: "--sync-header") }
        do {
            _ = try HTTPHeader.parse("Token: @/no/such/file", option: "--webhook-header")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.message == "--webhook-header Token: cannot read the value file '/no/such/file'")
        }
    }

    /// A line break inside a value would start a second header (header injection).
    @Test func controlCharactersAreRefused() throws {
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("X: a\rInjected: b", option: "--sync-header") }
        let path = try file("ok\u{1}\n")
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("X: @\(path)", option: "--sync-header") }
    }
}
