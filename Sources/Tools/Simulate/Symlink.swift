import Glibc
import LiveLoop
import Platform
import Receivers
import SystemPackage

/// Points `link` at `target`, atomically replacing an older link (a simulator restarted after a
/// crash gets a new /dev/pts number, and the reader keeps using the same path).
///
/// Only a symlink to a pseudo-terminal (`/dev/pts/N`, what an earlier `simulate` left) is
/// replaced: anything else at `link` (a file, a device node such as the real receiver's
/// `/dev/ttyUSB0`, a directory, a link to anything but a pseudo-terminal) is someone else's and is
/// refused as bad input, untouched (docs/running.md).
/// The corresponding C functions are `lstat`, `readlink`, `symlink` and `rename`.
public func replaceSymlink(_ link: String, pointingTo target: String) throws {
    if let refusal = linkRefusal(link) { throw InputError(message: refusal) }
    let temporary = link + ".\(getpid()).new"
    if symlinkTarget(temporary) != nil { unlink(temporary) }  // ours, from a run with this pid
    guard symlink(target, temporary) == 0 else {
        throw SerialError(operation: "symlink", path: link, errno: Errno(rawValue: errno))
    }
    guard rename(temporary, link) == 0 else {
        let error = Errno(rawValue: errno)
        unlink(temporary)
        throw SerialError(operation: "rename", path: link, errno: error)
    }
}

/// Why `--link PATH` must not replace what is at `link`; nil when nothing is there or it is a
/// symlink to a pseudo-terminal.
func linkRefusal(_ link: String) -> String? {
    var info = stat()
    guard lstat(link, &info) == 0 else { return nil }  // nothing there (or unreachable: symlink says)
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFLNK:
        let target = symlinkTarget(link) ?? ""
        if isPseudoTerminalPath(target) { return nil }
        kind = "a symlink to '\(target)', not to a pseudo-terminal"
    case S_IFCHR: kind = "a character device"
    case S_IFBLK: kind = "a block device"
    case S_IFDIR: kind = "a directory"
    case S_IFIFO: kind = "a named pipe"
    case S_IFSOCK: kind = "a socket"
    default: kind = "a file"
    }
    return """
        --link \(link): there is \(kind) there; simulate replaces only a symlink to a pseudo-terminal \
        (one an earlier simulate left). Choose another path or remove it yourself.
        """
}

/// `/dev/pts/N`: a Unix 98 pseudo-terminal's path.
func isPseudoTerminalPath(_ path: String) -> Bool {
    let prefix = "/dev/pts/"
    guard path.hasPrefix(prefix) else { return false }
    let number = path.dropFirst(prefix.count)
    return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
}

/// The target of `link` if it is a symlink. The corresponding C function is `readlink`.
func symlinkTarget(_ link: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(link, &buffer, buffer.count - 1)
    guard length >= 0 else { return nil }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Removes `link` if it is still the symlink this process made to `target` (a later simulate may
/// have taken the path over; a file someone else put there is never removed).
public func removeSymlink(_ link: String, pointingTo target: String) {
    if symlinkTarget(link) == target { unlink(link) }
}
