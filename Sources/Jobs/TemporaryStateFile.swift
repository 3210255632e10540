import Foundation
import LiveLoop

#if canImport(Glibc)
    import Glibc
#endif

/// The state file a replay without `--state` keeps its outbox in, for as long as it runs: in a
/// folder of its own that `mkdtemp` made (mode 0700, a name nobody could foresee), never at a
/// fixed name in the shared temporary folder. A name made of the pid alone was taken by whatever
/// an earlier replay with that pid left when it was killed, and the new replay refused to start.
struct TemporaryStateFile {
    let folder: String
    var path: String { folder + "/outbox.sqlite" }

    /// Makes the folder under `$TMPDIR` (or `/tmp`). The corresponding C function is `mkdtemp`.
    init() throws(InputError) {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/gpsfence-replay-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw InputError(
                message:
                    "cannot make a folder for the replay's outbox in \(base): \(String(cString: strerror(errno))) (give --state FILE)"
            )
        }
        folder = String(cString: made)
    }

    /// Removes what the state file is made of and the folder; anything else found in it stays,
    /// and with it the folder (it was not ours).
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] { unlink(path + suffix) }
        rmdir(folder)
    }
}
