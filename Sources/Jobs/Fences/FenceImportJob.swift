import FenceImport
import Glibc
import LiveLoop

/// `gpsfence fences import SOURCE... --output FILE` (docs/fences.md, "Importing fences"): the
/// fences go to a temporary file beside the output, synced and renamed over it only when every
/// source was read, so a bad source or a full disk leaves no partial output (and an older output
/// whole). The summary is returned for standard error.
/// The corresponding C functions are `open`, `fsync`, `close`, `rename` and `unlink`.
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
        let temporary = output + ".\(getpid()).partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw InputError(message: "cannot create '\(temporary)': \(String(cString: strerror(errno)))")
        }
        let summary: ImportSummary
        do {
            summary = try FenceImporter(settings: settings).run(sources: sources, descriptor: fd, outputName: output)
            guard fsync(fd) == 0 else {
                throw RuntimeFailure(message: "cannot write '\(output)': \(String(cString: strerror(errno)))")
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, output) == 0 else {
            let message = "cannot write '\(output)': \(String(cString: strerror(errno)))"
            unlink(temporary)
            throw RuntimeFailure(message: message)
        }
        return summary.lines(output: output)
    }
}
