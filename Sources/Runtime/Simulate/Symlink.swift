import Glibc
import Serial
import SystemPackage

/// Points `link` at `target`, atomically replacing an older link (a simulator restarted after a
/// crash gets a new /dev/pts number, and the reader keeps using the same path).
/// The corresponding C functions are `symlink` and `rename`.
public func replaceSymlink(_ link: String, pointingTo target: String) throws(SerialError) {
    let temporary = link + ".\(getpid()).new"
    unlink(temporary)
    guard symlink(target, temporary) == 0 else {
        throw SerialError(operation: "symlink", path: link, errno: Errno(rawValue: errno))
    }
    guard rename(temporary, link) == 0 else {
        let error = Errno(rawValue: errno)
        unlink(temporary)
        throw SerialError(operation: "rename", path: link, errno: error)
    }
}

/// Removes `link` if it is a symlink (never a file someone else put there).
public func removeSymlink(_ link: String) {
    var info = stat()
    if lstat(link, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { unlink(link) }
}
