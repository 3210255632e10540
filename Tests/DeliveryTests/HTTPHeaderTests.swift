import Foundation
import Testing

@testable import Delivery

/// `--webhook-header` and `--sync-header` (docs/running.md): one parser for both.
@Suite struct HTTPHeaderTests {
    /// A private file (0600, as a secret must be) holding `text`.
    func file(_ text: String, mode: Int = 0o600, name: String = "gpsfence-header-\(UUID().uuidString)") throws
        -> String
    {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
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
        #expect(throws: HTTPHeaderError(option: "--sync-header", cause: .noColon(argument: "no colon"))) {
            try HTTPHeader.parse("no colon", option: "--sync-header")
        }
        #expect(
            throws: HTTPHeaderError(
                option: "--sync-header", cause: .notAName(argument: "Bad Name: x", name: "Bad Name"))
        ) {
            try HTTPHeader.parse("Bad Name: x", option: "--sync-header")
        }
        #expect(throws: HTTPHeaderError(option: "--sync-header", cause: .notAName(argument: ": x", name: ""))) {
            try HTTPHeader.parse(": x", option: "--sync-header")
        }
        do {
            _ = try HTTPHeader.parse("Token: @/no/such/file", option: "--webhook-header")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(
                error.description == "--webhook-header Token: open '/no/such/file' failed: No such file or directory")
        }
    }

    /// A token file other users may read is refused, named, with the fix.
    @Test func aWorldReadableValueFileIsRefused() throws {
        let path = try file("Bearer t0ken\n", mode: 0o644)
        do {
            _ = try HTTPHeader.parse("Authorization: @\(path)", option: "--webhook-header")
            Issue.record("a world-readable token file was accepted")
        } catch {
            #expect(error.description.hasPrefix("--webhook-header Authorization: '\(path)'"), "\(error.description)")
            #expect(error.description.contains("mode 0644"), "\(error.description)")
            #expect(error.description.contains("chmod 600 \(path)"), "\(error.description)")
        }
    }

    /// Under systemd with `LoadCredential=`, a bare name is the credential's.
    @Test func aRelativeFileIsACredentialWhenTheProcessHasCredentials() throws {
        let name = "gpsfence-credential-\(UUID().uuidString)"
        _ = try file("Bearer from-credential\n", mode: 0o400, name: name)
        let secrets = SecretSources(credentialsDirectory: FileManager.default.temporaryDirectory.path)
        let header = try HTTPHeader.parse("Authorization: @\(name)", option: "--webhook-header", secrets: secrets)
        #expect(header.value == "Bearer from-credential")
    }

    /// A line break inside a value would start a second header (header injection).
    @Test func controlCharactersAreRefused() throws {
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("X: a\rInjected: b", option: "--sync-header") }
        let path = try file("ok\u{1}\n")
        #expect(throws: HTTPHeaderError.self) { try HTTPHeader.parse("X: @\(path)", option: "--sync-header") }
    }
}
