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
public func replaceSymlink(_ link: String, pointingTo target: String) throws {
    if let refusal = linkRefusal(link) { throw InputError.usage(refusal) }
    do {
        // A leftover link of the temporary name is ours, from a run with this pid.
        try Platform.replaceSymlink(link, temporary: link + ".\(currentProcessID()).new", pointingTo: target)
    } catch {
        throw SerialError(operation: error.step.rawValue, path: error.path, errno: error.errno)
    }
}

/// Why `--link PATH` must not replace what is at `link`; nil when nothing is there or it is a
/// symlink to a pseudo-terminal.
func linkRefusal(_ link: String) -> String? {
    // Nothing there (or unreachable: symlink says).
    guard let info = try? FileStatus.ofLink(link) else { return nil }
    let kind: String
    switch info.kind {
    case .symlink:
        let target = symlinkTarget(link) ?? ""
        if isPseudoTerminalPath(target) { return nil }
        kind = "a symlink to '\(target)', not to a pseudo-terminal"
    case .characterDevice: kind = "a character device"
    case .blockDevice: kind = "a block device"
    case .directory: kind = "a directory"
    case .namedPipe: kind = "a named pipe"
    case .socket: kind = "a socket"
    case .regular: kind = "a file"
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

/// Removes `link` if it is still the symlink this process made to `target` (a later simulate may
/// have taken the path over; a file someone else put there is never removed).
public func removeSymlink(_ link: String, pointingTo target: String) {
    if symlinkTarget(link) == target { removeFile(link) }
}
