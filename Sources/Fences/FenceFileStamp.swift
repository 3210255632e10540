import Platform

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
        guard let info = try? FileStatus.of(path) else { return nil }
        return FenceFileStamp(
            device: info.device, inode: info.inode, seconds: info.modifiedSeconds,
            nanoseconds: info.modifiedNanoseconds, size: info.size)
    }
}
