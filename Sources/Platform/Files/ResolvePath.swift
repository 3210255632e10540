import Glibc

/// The path with every symlink followed; the path itself when that fails.
/// The corresponding C function is `realpath`.
public func resolvePath(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
