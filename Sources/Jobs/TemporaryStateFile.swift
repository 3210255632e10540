import Foundation
import LiveLoop
import Platform

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
        do {
            folder = try makeTemporaryFolder(prefix: base + "/gpsfence-replay-")
        } catch {
            throw InputError.noTemporaryFolder(base: base, cause: .call(error))
        }
    }

    /// Removes what the state file is made of and the folder; anything else found in it stays,
    /// and with it the folder (it was not ours).
    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal", ".lock"] { removeFile(path + suffix) }
        removeFolder(folder)
    }
}
