import Glibc

/// What tells one version of the fence file from the next without reading it: the file (device and
/// inode, which a rename-replace changes), its modification time and its size.
public struct FenceFileStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    /// The stamp of the file `path` names now (following a symlink); nil when there is none.
    /// The corresponding C function is `stat`.
    public static func read(_ path: String) -> FenceFileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FenceFileStamp(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), seconds: info.st_mtim.tv_sec,
            nanoseconds: info.st_mtim.tv_nsec, size: Int64(info.st_size))
    }
}
