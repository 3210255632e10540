import Glibc

/// The state file records where someone has been (docs/running.md): it and the folders made for it are
/// private to the user whatever the umask (under `umask 000`, `FileManager` made the
/// folders 0777).
public enum PrivateFiles {
    /// `mkdir -p` with mode 0700 for every folder it creates (a umask can only take bits away, so
    /// they are 0700 or stricter); folders that exist are left as they are. Nil on success, else
    /// what failed. The corresponding C function is `mkdir`.
    public static func makeFolders(_ path: String) -> FolderProblem? {
        guard !path.isEmpty else { return nil }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return .call(.last("mkdir", prefix)) }
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return .notAFolder(path: path) }
        return nil
    }

    /// Why `makeFolders` could not make a path of folders.
    public enum FolderProblem: Error, Sendable {
        /// `mkdir` failed on this folder of the path.
        case call(FileCallError)
        /// Something other than a folder is at the path.
        case notAFolder(path: String)

        public var text: String {
            switch self {
            case .call(let failure): "\(failure.path): \(failure.reason)"
            case .notAFolder(let path): "\(path) is not a folder"
            }
        }
    }

    /// Makes the file at `path` if it is not there, 0600 from its first byte, and makes an existing
    /// one private; nil on success, else why it cannot be opened. The corresponding C functions are
    /// `open` (`O_CREAT`, mode 0600) and `fchmod`.
    public static func create(_ path: String) -> FileCallError? {
        let descriptor: Int32
        switch openRetrying(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) {
        case .success(let value): descriptor = value
        case .failure(let errno): return FileCallError(call: "open", path: path, errno: errno)
        }
        tighten(descriptor)
        close(descriptor)
        return nil
    }

    /// An open file that group or others may read or write becomes 0600. Fails quietly when we do
    /// not own it (then it was not ours to make private). The corresponding C function is `fchmod`.
    static func tighten(_ descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & 0o077 != 0 else { return }
        _ = fchmod(descriptor, 0o600)
    }

    /// `tighten` for a file that may not exist (the -wal and -shm files of an earlier run).
    public static func tighten(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return }
        tighten(descriptor)
        close(descriptor)
    }
}
