#if canImport(Glibc)
    import Glibc
#endif

/// Finding the program a user named: a path as given, or the first executable of that name in a
/// `PATH`.
public enum ProgramLookup {
    public enum Problem: Error, Sendable, Equatable {
        /// A path (it contains `/`) that is not an executable regular file.
        case notExecutable
        /// A bare name found in no folder of `PATH`.
        case notInPath
    }

    /// - Parameter path: the `PATH` to search (the caller's environment; the usual folders when nil).
    public static func resolve(_ program: String, path: String?) -> Result<String, Problem> {
        if program.contains("/") { return isExecutable(program) ? .success(program) : .failure(.notExecutable) }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = String(folder) + "/" + program
            if isExecutable(candidate) { return .success(candidate) }
        }
        return .failure(.notInPath)
    }

    /// A regular file with an execute bit (root passes `access(X_OK)` for any file, so the mode
    /// bits are checked themselves). The corresponding C function is `stat`.
    public static func isExecutable(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return info.st_mode & 0o111 != 0
    }
}
