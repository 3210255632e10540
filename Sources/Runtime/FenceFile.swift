import Geofence

/// Loading a fence file for a command: a bad file throws its `FenceLoadError` (exit status 2,
/// through `classify`), whose message names the file, the feature and the problem.
public enum FenceFile {
    public static func load(_ path: String) throws(FenceLoadError) -> FenceSet {
        try FenceSet.load(path: path)
    }
}
