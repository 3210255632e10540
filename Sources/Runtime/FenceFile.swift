import Geofence

/// Loading a fence file for a command: a bad file becomes an `InputError` (exit status 2) whose
/// message names the file, the feature and the problem.
public enum FenceFile {
    public static func load(_ path: String) throws(InputError) -> FenceSet {
        if let problem = FileKind.sniff(path: path).flatMap({ $0.fenceProblem(path) }) {
            throw InputError(message: problem)
        }
        do {
            return try FenceSet.load(path: path)
        } catch {
            throw InputError(message: error.message)
        }
    }
}
