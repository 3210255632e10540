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
    if let occupant = linkOccupant(link) { throw InputError.option(.linkTaken(link: link, occupant)) }
    do {
        // A leftover link of the temporary name is ours, from a run with this pid.
        try Platform.replaceSymlink(link, temporary: link + ".\(currentProcessID()).new", pointingTo: target)
    } catch {
        throw SerialError(operation: error.step.rawValue, path: error.path, errno: error.errno)
    }
}

/// What is at `link` that `--link PATH` must not replace; nil when nothing is there or it is a
/// symlink to a pseudo-terminal.
func linkOccupant(_ link: String) -> LinkOccupant? {
    // Nothing there (or unreachable: symlink says).
    guard let info = try? FileStatus.ofLink(link) else { return nil }
    guard info.kind == .symlink else { return .file(info.kind) }
    let target = symlinkTarget(link) ?? ""
    return isPseudoTerminalPath(target) ? nil : .symlink(target: target)
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
