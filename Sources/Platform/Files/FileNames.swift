import Glibc
import SystemPackage

/// Makes the folder `path` with `mode` (the umask applies); nil when it was made, else the errno
/// (`.fileExists` when something is there already). The corresponding C function is `mkdir`.
public func makeFolder(_ path: String, mode: UInt32) -> Errno? {
    mkdir(path, mode_t(mode)) == 0 ? nil : Errno(rawValue: Glibc.errno)
}

/// Removes the name `path` (a file or a symlink, not a folder); best effort.
/// The corresponding C function is `unlink`.
public func removeFile(_ path: String) {
    _ = unlink(path)
}

/// Removes the empty folder `path`; best effort. The corresponding C function is `rmdir`.
public func removeFolder(_ path: String) {
    _ = rmdir(path)
}

/// What this process may do with a path, asked of the kernel with the real user's rights.
public struct FileAccess: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Only that the path exists.
    public static let exists: FileAccess = []
    public static let read = FileAccess(rawValue: R_OK)
    public static let write = FileAccess(rawValue: W_OK)
}

/// Nil when `path` exists and this process may do `what` with it, else the errno.
/// The corresponding C function is `access`.
public func checkAccess(_ path: String, _ what: FileAccess) -> Errno? {
    access(path, what.isEmpty ? F_OK : what.rawValue) == 0 ? nil : Errno(rawValue: Glibc.errno)
}

/// The target of the symlink `link`; nil when it is not one. The corresponding C function is
/// `readlink`.
public func symlinkTarget(_ link: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(link, &buffer, buffer.count - 1)
    guard length >= 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The words of the C library for `errno`. The corresponding C function is `strerror`.
public func errorText(_ errno: Errno) -> String {
    String(cString: strerror(errno.rawValue))
}

/// Makes a new folder, mode 0700, named `prefix` followed by six characters nobody could foresee;
/// its path. The corresponding C function is `mkdtemp`.
public func makeTemporaryFolder(prefix: String) throws(FileCallError) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw .last("mkdtemp", prefix)
    }
    return String(cString: made)
}

/// The words of the C library for the error the last failed C call left in `errno` (a library such
/// as libmosquitto that reports "see errno"). The corresponding C function is `strerror`.
public func lastErrorText() -> String {
    String(cString: strerror(Glibc.errno))
}
