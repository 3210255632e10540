import Glibc
import SystemPackage

/// What a path names: its type, size, permission bits, owner and the stamp that tells one version
/// of a file from the next. The corresponding C functions are `stat`, `fstat` and `lstat`.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case regular, directory, symlink, characterDevice, blockDevice, namedPipe, socket
    }

    public var kind: Kind
    public var size: Int64
    /// The permission bits, set-id and sticky bits included (`st_mode & 07777`).
    public var permissions: UInt32
    public var owner: UInt32
    public var group: UInt32
    public var device: UInt64
    public var inode: UInt64
    /// The modification time: seconds and nanoseconds since the epoch.
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int

    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symlink
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFIFO: kind = .namedPipe
        case S_IFSOCK: kind = .socket
        default: kind = .regular
        }
        size = Int64(info.st_size)
        permissions = UInt32(info.st_mode & 0o7777)
        owner = info.st_uid
        group = info.st_gid
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
    }

    /// The status of what `path` names, a symlink followed. The corresponding C function is `stat`.
    public static func of(_ path: String) throws(FileCallError) -> FileStatus {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .last("stat", path) }
        return FileStatus(info)
    }

    /// The status of `path` itself, a symlink not followed. The corresponding C function is `lstat`.
    public static func ofLink(_ path: String) throws(FileCallError) -> FileStatus {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .last("lstat", path) }
        return FileStatus(info)
    }

    /// The status of an open descriptor. The corresponding C function is `fstat`.
    public static func of(_ descriptor: FileDescriptor) throws(FileCallError) -> FileStatus {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { throw .last("fstat", "descriptor \(descriptor.rawValue)") }
        return FileStatus(info)
    }
}
