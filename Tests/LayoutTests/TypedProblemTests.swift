import Foundation
import Testing

/// Problems travel as typed values and are put into words once, where they are said
/// (docs/architecture.md, "Problems"). Two rules hold for the tree:
/// - a problem type carried to the edge keeps no String as its words: no stored property and no
///   case payload labelled as words (`message`, `problem`, `words`, `reason`, `detail`, `what`,
///   `description`), and no case whose whole payload is one unlabelled String; a String there
///   names a thing (a path, an option, a fence id, an element);
/// - no source looks at a problem's words (`.message` or `.description` compared, or searched
///   with `contains`, `hasPrefix`, `hasSuffix`);
/// - the command line's checks throw an `OptionProblem`: in the `gpsfence` target every
///   `ValidationError(` is given one of its cases (`ValidationError(.empty(option: "--sync-id"))`),
///   and one file, `OptionProblemUsage.swift`, turns an `OptionProblem` into the argument
///   parser's error; no other module builds a `ValidationError`.
@Suite struct TypedProblemTests {
    static let root = ModuleMapTests.root

    /// The problem types carried to the edge, each with the file that declares it.
    static let problemTypes: [(file: String, type: String)] = [
        ("Sources/LiveLoop/Problems/InputError.swift", "InputError"),
        ("Sources/LiveLoop/Problems/RuntimeFailure.swift", "RuntimeFailure"),
        ("Sources/LiveLoop/Problems/RuntimeFailure.swift", "ReceiverFailure"),
        ("Sources/LiveLoop/Problems/RuntimeFailure.swift", "OpeningStep"),
        ("Sources/Jobs/Failures.swift", "StoppedBySignal"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "OptionProblem"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "Companion"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "OptionConflict"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "PointArgumentProblem"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "LinkOccupant"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "ValueForm"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "NumberProblem"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "MissingInput"),
        ("Sources/LiveLoop/Problems/OptionProblem.swift", "InterferenceProblem"),
        ("Sources/LiveLoop/Problems/InputError.swift", "RouteProblem"),
        ("Sources/LiveLoop/Problems/InputError.swift", "GeoJSONShape"),
        ("Sources/LiveLoop/Problems/FileFailure.swift", "FileFailure"),
        ("Sources/Receivers/ReceiverAddress.swift", "ReceiverAddressError"),
        ("Sources/Receivers/Gpsd/GpsdAddress.swift", "GpsdAddressError"),
        ("Sources/Fences/PointsFile.swift", "PointsFileError"),
        ("Sources/Delivery/HTTP/HTTPHeader.swift", "HTTPHeaderError"),
        ("Sources/Web/WebSettings.swift", "WebSettingsError"),
        ("Sources/Web/WebServer.swift", "WebServerError"),
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
        ("Sources/Fences/Rules/FenceRule.swift", "RuleProblem"),
        ("Sources/Presentation/ZoneOffsets.swift", "ZoneError"),
        ("Sources/JSONInput/JSONScanner.swift", "JSONSyntaxError"),
        ("Sources/JSONInput/JSONScanner.swift", "JSONProblem"),
        ("Sources/Events/Problem.swift", "HookFailure"),
        ("Sources/Events/Problem.swift", "Problem"),
        ("Sources/Events/SourceProblem.swift", "SourceProblem"),
        ("Sources/Events/SourceProblem.swift", "GpsdSkippedLine"),
        ("Sources/Events/Problems/CaughtError.swift", "CaughtError"),
        ("Sources/Events/Problems/ProgramRunFailure.swift", "ProgramRunFailure"),
        ("Sources/Events/Problems/AlertProblem.swift", "AlertProblem"),
        ("Sources/Events/Problems/SayProblem.swift", "SayProblem"),
        ("Sources/Events/Problems/NotifyProblem.swift", "NotifyProblem"),
        ("Sources/Events/Problems/BellProblem.swift", "BellProblem"),
        ("Sources/Events/Problems/TransportFailure.swift", "TransportFailure"),
        ("Sources/Events/Problems/BrokerCause.swift", "BrokerAbsence"),
        ("Sources/Events/Problems/BrokerCause.swift", "BrokerCause"),
        ("Sources/Events/Problems/DeliveryProblem.swift", "DeliveryProblem"),
        ("Sources/Events/Problems/BrokerProblem.swift", "BrokerProblem"),
        ("Sources/Events/Problems/FenceLayerProblem.swift", "FenceLayerProblem"),
        ("Sources/Events/Problems/OwnTracksCommandProblem.swift", "OwnTracksCommandProblem"),
        ("Sources/Events/Problems/OwnTracksCommandProblem.swift", "WaypointProblem"),
        ("Sources/Events/Problems/LayerCircleRefusal.swift", "LayerCircleRefusal"),
        ("Sources/Events/Problems/EngineProblem.swift", "EngineProblem"),
        ("Sources/Events/Problems/FenceFeedProblem.swift", "FenceFeedProblem"),
        ("Sources/LiveLoop/Engine/FenceFeed.swift", "FenceFeedOutcome"),
        ("Sources/Delivery/OutboxDelivery.swift", "DeliveryOutcome"),
        ("Sources/Delivery/MQTT/OwnTracksCommand.swift", "ParseResult"),
        ("Sources/Delivery/MQTT/OwnTracksCommand.swift", "WaypointRefusal"),
        ("Sources/Delivery/MQTT/OwnTracksCommand.swift", "Item"),
        ("Sources/Fences/FenceLoadError.swift", "FenceLoadError"),
        ("Sources/Fences/FenceProblem.swift", "FenceProblem"),
        ("Sources/Fences/FenceProblem.swift", "CoordinatesProblem"),
        ("Sources/Fences/FenceProblem.swift", "PropertyProblem"),
        ("Sources/Fences/FenceProblem.swift", "ShapeProblem"),
        ("Sources/Fences/FenceProblem.swift", "ShapePart"),
        ("Sources/Fences/CSVColumns.swift", "CSVHeaderProblem"),
        ("Sources/Store/StateStore.swift", "StoreError"),
        ("Sources/Store/StoreProblem.swift", "StoreProblem"),
        ("Sources/Platform/Files/PrivateFiles.swift", "FolderProblem"),
        ("Sources/Delivery/MQTT/MQTTConfiguration.swift", "MQTTConfigurationError"),
        ("Sources/Delivery/MQTT/MQTTProblem.swift", "MQTTProblem"),
        ("Sources/Delivery/MQTT/MQTTProblem.swift", "TopicProblem"),
        ("Sources/Delivery/MQTT/ClientCertificate.swift", "Problem"),
        ("Sources/Fences/Rules/OpeningHours.swift", "OpeningHoursError"),
        ("Sources/Fences/Rules/ConditionalLimits.swift", "Unreadable"),
        ("Sources/Store/StateLock.swift", "StateInUse"),
        ("Sources/Platform/Network/TCPSocket.swift", "SocketError"),
        ("Sources/Platform/SerialError.swift", "SerialError"),
    ]

    static let wordLabels = "message|problem|words|reason|detail|what|description"

    /// The one case that is a problem's words and nothing else: an `error` event read back from
    /// the state file, whose `message` is all that was kept of it.
    static let readBack = (file: "Sources/Events/Problem.swift", line: "case readBack(String)")

    /// A stored String property named as words: `let message: String`, `var reason: String?`.
    static var storedWords: Regex<AnyRegexOutput> {
        try! Regex(
            #"^\s*(public |package |private |fileprivate |internal )?(let|var) ("# + wordLabels + #"): String\??\s*$"#)
    }

    /// A case whose whole payload is one String, unlabelled or labelled as words.
    static var caseOfWords: Regex<AnyRegexOutput> {
        try! Regex(#"\bcase \w+\(\s*(("# + wordLabels + #")\s*:\s*)?String\??\s*\)"#)
    }

    /// A case with a String among its values labelled as words.
    static var caseWithWords: Regex<AnyRegexOutput> {
        try! Regex(#"\bcase \w+\(.*\b("# + wordLabels + #")\s*:\s*String\??\s*[,)]"#)
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
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if file == Self.readBack.file, trimmed == Self.readBack.line { continue }
                found.append("\(file): \(type): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "problem types keeping their words as a String:\n\(found.joined(separator: "\n"))")
    }

    /// Every Swift file under Sources, with its path from the package's root and its text.
    static func sources() throws -> [(path: String, text: String)] {
        var sources: [(path: String, text: String)] = []
        let folder = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            let path = String(file.path.dropFirst(root.path.count + 1))
            sources.append((path, try String(contentsOf: file, encoding: .utf8)))
        }
        return sources
    }

    @Test func noSourceLooksAtAProblemsWords() throws {
        var found: [String] = []
        for (path, text) in try Self.sources() {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where Self.inspectsWords(line) {
                found.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "a problem recognised by its words:\n\(found.joined(separator: "\n"))")
    }

    /// A sentence handed to a report: `report("...")`, `reportProblem(\n "\(x) ...")`.
    static var sentenceReported: Regex<AnyRegexOutput> { try! Regex(#"\breport\w*\(\s*#*""#) }

    /// A report function, or the engine's `error`, that takes a String.
    static var reportOfWords: Regex<AnyRegexOutput> {
        try! Regex(
            #"\breport\w*\s*:\s*(@escaping\s+)?(@Sendable\s+)?\(\s*String\s*\)\s*->|func (report|error)\w*\(_ \w+: String\)"#
        )
    }

    /// Where an `error` event read back from the state file becomes a problem again.
    static let readBackFiles: Set<String> = ["Sources/Events/Problem.swift", "Sources/Events/EventFields.swift"]

    @Test func problemsAreReportedAsValues() throws {
        var found: [String] = []
        for (path, text) in try Self.sources() {
            found += Self.sentencesReported(text).map { "\(path): \($0)" }
            if !Self.readBackFiles.contains(path), text.contains(".readBack(") {
                found.append("\(path): a problem read back from words outside the state file's reader")
            }
        }
        #expect(found.isEmpty, "a problem reported as a sentence:\n\(found.joined(separator: "\n"))")
    }

    /// The lines (trimmed) where a sentence is reported, or a report takes one; comments left out.
    static func sentencesReported(_ text: String) -> [String] {
        var found: [String] = []
        for match in text.matches(of: sentenceReported) + text.matches(of: reportOfWords) {
            let lineStart =
                text[..<match.range.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
            let line = text[lineStart...].prefix { $0 != "\n" }.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("//") { continue }
            found.append(line)
        }
        return found
    }

    /// The one file of the `gpsfence` target that makes an `OptionProblem` the argument parser's
    /// error (with its usage lines, exit status 2).
    static let optionProblemUsage = "Sources/gpsfence/OptionProblemUsage.swift"

    /// `ValidationError(` and what follows it up to the first character that is not white space.
    static var validationError: Regex<AnyRegexOutput> { try! Regex(#"\bValidationError\(\s*(\S)"#) }

    @Test func optionChecksThrowAnOptionProblem() throws {
        var found: [String] = []
        for (path, text) in try Self.sources() where path != Self.optionProblemUsage {
            found += Self.validationErrorsNotOfAProblem(text).map { "\(path): \($0)" }
            if text.contains("extension ValidationError") { found.append("\(path): extends ValidationError") }
        }
        let usage = try String(contentsOf: Self.root.appendingPathComponent(Self.optionProblemUsage), encoding: .utf8)
        #expect(usage.contains("init(_ problem: OptionProblem)"), "\(Self.optionProblemUsage) renders no OptionProblem")
        #expect(
            found.isEmpty,
            "a ValidationError built otherwise than from an OptionProblem case:\n\(found.joined(separator: "\n"))")
    }

    /// The lines (trimmed) where a `ValidationError` is built from anything but an `OptionProblem`
    /// case (`.name`), comments left out.
    static func validationErrorsNotOfAProblem(_ text: String) -> [String] {
        var found: [String] = []
        for match in text.matches(of: validationError) {
            let lineStart =
                text[..<match.range.lowerBound].lastIndex(of: "\n").map(text.index(after:)) ?? text.startIndex
            let line = text[lineStart...].prefix { $0 != "\n" }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            guard let first = match.output[1].substring, first != "." else { continue }
            found.append(line.trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// The patterns refuse what they must and let things' names and renderings pass.
    @Test func thePatternsTellWordsFromThings() {
        let words = [
            "    public let message: String",
            "    var reason: String?",
            "    case usage(String)",
            "    case failed(problem: String)",
            "    case said( String? )",
            "    case content(path: String, at: FilePlace?, problem: String)",
            "    public var description: String",
        ]
        let things = [
            "    public let program: String",
            "    case notAnHTTPURL(endpoint: String)",
            "    case closesNothing(name: String)",
            "    case route(path: String, at: FilePlace?, RouteProblem)",
            "    var text: String {",
            "    public var description: String { message }",
            "    // case usage(String)",
        ]
        for line in words { #expect(Self.keepsWords(line[...]), "\(line)") }
        for line in things { #expect(!Self.keepsWords(line[...]), "\(line)") }
        #expect(Self.inspectsWords(#"if error.message.contains("not found") {"#[...]))
        #expect(Self.inspectsWords(#"guard failure.description == "gone" else"#[...]))
        #expect(!Self.inspectsWords(#"report(error.description)"#[...]))
        let built = """
            throw ValidationError("--units '\\(units)' is not one of metric, imperial, nautical")
            throw ValidationError(problem.description)
            throw ValidationError(
                "nothing to configure")
            throw ValidationError(.empty(option: "--sentences"))
            throw ValidationError(
                .notAChoice(option: "--units", value: units, choices: ["metric"]))
            // throw ValidationError("a comment")
            """
        #expect(Self.validationErrorsNotOfAProblem(built).count == 3, "\(Self.validationErrorsNotOfAProblem(built))")
        let reported = """
            report("--say: \\(name) could not start: \\(error)")
            report(
                "--notify: no desktop session (no D-Bus session bus, no display); notifications are off")
            reportProblem(#"a "quoted" problem"#)
            private let report: @Sendable (String) -> Void
            report: @escaping @Sendable (String) -> Void,
            init(report: (String) -> Void) {
            func error(_ message: String) { error(.said(message)) }
            // report("a comment")
            report(.alert(.say(.notInstalled(program: name))))
            private let report: @Sendable (Problem) -> Void
            func error(_ problem: Problem) {
            let report = try job.report()
            """
        #expect(Self.sentencesReported(reported).count == 7, "\(Self.sentencesReported(reported))")
        #expect(Self.keepsWords("    case said(String)"[...]))
    }

    static func keepsWords(_ line: Substring) -> Bool {
        if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { return false }
        return line.wholeMatch(of: storedWords) != nil || line.contains(caseOfWords) || line.contains(caseWithWords)
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
