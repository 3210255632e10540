import Fences
import Platform

/// Loading a fence file for a command: a bad file throws its `FenceLoadError` (exit status 2,
/// through `classify`), whose message names the file, the feature and the problem.
public enum FenceFile {
    public static func load(_ path: String) throws -> FenceSet {
        if let problem = FileKind.sniff(path: path).flatMap({ $0.fenceProblem(path) }) {
            throw problem
        }
        return try FenceSet.load(path: path)
    }
}
