import Glibc

/// The path with every symlink followed; the path itself when that fails.
/// The corresponding C function is `realpath`.
public func resolvePath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// The path with every symlink followed, or why it cannot be (nothing there, a loop, no access).
/// The corresponding C function is `realpath`.
public func resolvedPath(_ path: String) throws(FileCallError) -> String {
    guard let resolved = realpath(path, nil) else { throw .last("realpath", path) }
    defer { free(resolved) }
    return String(cString: resolved)
}
