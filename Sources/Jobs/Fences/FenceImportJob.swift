import FenceImport
import LiveLoop
import Platform

/// `gpsfence fences import SOURCE... --output FILE` (docs/fences.md, "Importing fences"): the
/// fences go to a temporary file beside the output, synced and renamed over it only when every
/// source was read (Platform's `replaceFile`), so a bad source or a full disk leaves no partial
/// output (and an older output whole). The summary is returned for standard error.
public struct FenceImportJob {
    public var sources: [String]
    public var output: String
    public var settings: ImportSettings

    public init(sources: [String], output: String, settings: ImportSettings) {
        self.sources = sources
        self.output = output
        self.settings = settings
    }

    public func run() throws -> [String] {
        var summary: ImportSummary?
        do {
            try replaceFile(
                output, temporary: output + ".\(currentProcessID()).partial", mode: ReplaceMode(creation: 0o644)
            ) {
                summary = try FenceImporter(settings: settings).run(
                    sources: sources, descriptor: $0.rawValue, outputName: output)
            }
        } catch let error as ReplaceError {
            if error.step == .create {
                throw InputError.uncreatable(error)
            }
            throw RuntimeFailure.unwritable(path: output, cause: .replace(error))
        }
        return summary!.lines(output: output)
    }
}
