import Delivery
import Fences
import JSONOutput
import LiveLoop
import Presentation

/// `gpsfence fences lint FILE` (docs/fences.md, "Checking a fence file"): one line per finding,
/// `FILE: feature N (id ...) "name": kind: problem; fix`, or one JSON object per finding. A file
/// that does not load is refused as every command refuses it (exit status 2); findings are exit
/// status 1 (`FenceLintJob.Outcome`), a clean file 0.
public struct FenceLintJob {
    public var path: String
    public var json = false

    public init(path: String) { self.path = path }

    /// Prints the findings; returns how many there were.
    public func run() throws -> Int {
        let set = try FenceFile.load(path)
        let findings = FenceLint.findings(set)
        let out = OutputWriter.standardOutput
        for finding in findings { out.write(line: json ? Self.json(finding) : text(finding)) }
        if !json {
            let fences = "\(set.count) fence\(set.count == 1 ? "" : "s")"
            let summary =
                findings.isEmpty
                ? "\(path): \(fences), nothing to report"
                : "\(path): \(fences), \(findings.count) finding\(findings.count == 1 ? "" : "s")"
            out.write(line: HumanText.printable(summary))
        }
        out.flush()
        return findings.count
    }

    func text(_ finding: FenceFinding) -> String {
        var place = "\(path): feature \(finding.index) (id \(finding.id.json))"
        if let name = finding.name { place += " " + JSONLine.quoted(name) }
        return HumanText.printable("\(place): \(finding.kind.rawValue): \(finding.problem); \(finding.fix)")
    }

    static func json(_ finding: FenceFinding) -> String {
        var line = JSONLine()
        line.add("kind", finding.kind.rawValue)
        line.add("feature", finding.index)
        line.addRaw("id", json: finding.id.json)
        line.add("name", finding.name)
        line.add("problem", finding.problem)
        line.add("fix", finding.fix)
        return line.string
    }
}
