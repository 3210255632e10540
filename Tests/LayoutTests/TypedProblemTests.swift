import Foundation
import Testing

/// Problems travel as typed values and are put into words once, where they are said
/// (docs/architecture.md, "Problems"). Two rules hold for the tree:
/// - a problem type carried to the edge keeps no String as its words: no stored property and no
///   case whose whole payload is one String that is unlabelled or labelled as words (`message`,
///   `problem`, `words`, `reason`, `detail`, `what`); a String there names a thing (a path, an
///   option, a fence id, an element);
/// - no source looks at a problem's words (`.message` or `.description` compared, or searched
///   with `contains`, `hasPrefix`, `hasSuffix`).
@Suite struct TypedProblemTests {
    static let root = ModuleMapTests.root

    /// The problem types carried to the edge, each with the file that declares it.
    static let problemTypes: [(file: String, type: String)] = [
        ("Sources/LiveLoop/Problems/InputError.swift", "InputError"),
        ("Sources/LiveLoop/Problems/RuntimeFailure.swift", "RuntimeFailure"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "OptionProblem"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "Companion"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "OptionConflict"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "PointArgumentProblem"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "LinkOccupant"),
        ("Sources/Delivery/Hooks/HookError.swift", "HookError"),
        ("Sources/Delivery/HTTP/WebhookTransport.swift", "WebhookError"),
        ("Sources/Delivery/TrackSync/TrackSyncConfiguration.swift", "TrackSyncError"),
        ("Sources/FenceImport/FenceWriter.swift", "WriteFailure"),
        ("Sources/FenceImport/ImportError.swift", "ImportError"),
        ("Sources/FenceImport/ImportError.swift", "ImportPlace"),
        ("Sources/FenceImport/ImportProblem.swift", "ImportProblem"),
        ("Sources/FenceImport/ImportProblem+Formats.swift", "XMLProblem"),
        ("Sources/FenceImport/ImportProblem+Formats.swift", "PBFProblem"),
        ("Sources/FenceImport/ImportProblem+Formats.swift", "KMZProblem"),
        ("Sources/FenceImport/Inflate.swift", "InflateFailure"),
        ("Sources/Fences/Limits.swift", "RangeProblem"),
    ]

    static let wordLabels = "message|problem|words|reason|detail|what"

    /// A stored String property named as words: `let message: String`, `var reason: String?`.
    static var storedWords: Regex<AnyRegexOutput> {
        try! Regex(
            #"^\s*(public |package |private |fileprivate |internal )?(let|var) ("# + wordLabels + #"): String\??\s*$"#)
    }

    /// A case whose whole payload is one String, unlabelled or labelled as words.
    static var caseOfWords: Regex<AnyRegexOutput> {
        try! Regex(#"\bcase \w+\(\s*(("# + wordLabels + #")\s*:\s*)?String\??\s*\)"#)
    }

    /// Looking at a problem's words.
    static var wordsInspected: Regex<AnyRegexOutput> {
        try! Regex(#"\.(message|description)\s*(==|!=|\.(contains|hasPrefix|hasSuffix|range)\()"#)
    }

    @Test func problemTypesKeepNoStringAsTheirWords() throws {
        var found: [String] = []
        for (file, type) in Self.problemTypes {
            let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
            guard let body = Self.declaration(of: type, in: text) else {
                found.append("\(file): no declaration of \(type) (update this list)")
                continue
            }
            for line in body.split(separator: "\n") where Self.keepsWords(line) {
                found.append("\(file): \(type): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "problem types keeping their words as a String:\n\(found.joined(separator: "\n"))")
    }

    @Test func noSourceLooksAtAProblemsWords() throws {
        var found: [String] = []
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let path = String(file.path.dropFirst(Self.root.path.count + 1))
            let lines = try String(contentsOf: file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where Self.inspectsWords(line) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "a problem recognised by its words:\n\(found.joined(separator: "\n"))")
    }

    /// The patterns refuse what they must and let things' names and renderings pass.
    @Test func thePatternsTellWordsFromThings() {
        let words = [
            "    public let message: String",
            "    var reason: String?",
            "    case usage(String)",
            "    case failed(problem: String)",
            "    case said( String? )",
        ]
        let things = [
            "    public let program: String",
            "    case notAnHTTPURL(endpoint: String)",
            "    case closesNothing(name: String)",
            "    case content(path: String, at: FilePlace?, problem: String)",
            "    var text: String {",
            "    public var description: String { message }",
            "    // case usage(String)",
        ]
        for line in words { #expect(Self.keepsWords(line[...]), "\(line)") }
        for line in things { #expect(!Self.keepsWords(line[...]), "\(line)") }
        #expect(Self.inspectsWords(#"if error.message.contains("not found") {"#[...]))
        #expect(Self.inspectsWords(#"guard failure.description == "gone" else"#[...]))
        #expect(!Self.inspectsWords(#"report(error.description)"#[...]))
    }

    static func keepsWords(_ line: Substring) -> Bool {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return false }
        return line.wholeMatch(of: storedWords) != nil || line.contains(caseOfWords)
    }

    static func inspectsWords(_ line: Substring) -> Bool {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return false }
        return line.contains(wordsInspected)
    }

    /// The text of `type`'s declaration (`enum` or `struct`), from its name to its closing brace;
    /// nil when the file declares no such type. Braces inside string literals are not counted:
    /// these files' literals hold none.
    static func declaration(of type: String, in text: String) -> Substring? {
        guard let start = text.firstMatch(of: try! Regex(#"\b(enum|struct) "# + type + #"\b[^{]*\{"#)) else {
            return nil
        }
        var depth = 1
        var index = start.range.upperBound
        while index < text.endIndex, depth > 0 {
            switch text[index] {
            case "{": depth += 1
            case "}": depth -= 1
            default: break
            }
            index = text.index(after: index)
        }
        return text[start.range.lowerBound..<index]
    }
}
