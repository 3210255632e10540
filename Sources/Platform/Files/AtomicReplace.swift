import Glibc
import SystemPackage

/// Why a file or link was not replaced: the step and the path it failed on, the temporary file
/// removed again and the old file left whole.
public struct ReplaceError: Error, Equatable, Sendable {
    public enum Step: String, Sendable {
        case create, write, chmod, fsync, symlink, rename
    }

    public var step: Step
    /// The temporary file for every step but `rename`, which names the target.
    public var path: String
    public var errno: Errno
    /// What `strerror` says of the errno.
    public var reason: String { FileCallError(call: step.rawValue, path: path, errno: errno).reason }
}

/// How the new file is created and which mode it ends with.
public struct ReplaceMode: Sendable {
    /// The mode given to `open` (the umask applies).
    public var creation: mode_t
    /// The mode, owner and group set on the new file before it is renamed into place, the umask
    /// not applied (an edited file keeps its old file's); nil leaves the creation mode.
    public var copied: FileStatus?
    /// `O_EXCL`: a leftover temporary of the same name is an error rather than truncated.
    public var exclusive: Bool

    public init(creation: mode_t, copying copied: FileStatus? = nil, exclusive: Bool = true) {
        self.creation = creation
        self.copied = copied
        self.exclusive = exclusive
    }
}

/// Replaces `target` so that a reader sees the old file or the new one, never half of one, and a
/// crash leaves the old file whole: the new bytes go to `temporary` beside it (written by `fill`
/// through the descriptor), which is synced, given the old file's mode and owner where asked, and
/// renamed over `target`; then the folder is synced, so that the rename survives a power cut. The
/// one way every user's file (a fence file edited or imported, remembered rates) is written.
/// An error `fill` throws is rethrown after the temporary file is removed.
/// The corresponding C functions are `open`, `fchown`, `fchmod`, `fsync`, `close`, `rename`,
/// `unlink` and, for the folder, `open` and `fsync`.
public func replaceFile(
    _ target: String, temporary: String, mode: ReplaceMode, fill: (FileDescriptor) throws -> Void
) throws {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode.exclusive ? O_EXCL : O_TRUNC)
    let descriptor: Int32
    switch openRetrying(temporary, flags, mode.creation) {
    case .success(let value): descriptor = value
    case .failure(let errno): throw ReplaceError(step: .create, path: temporary, errno: errno)
    }
    func abandon(_ error: any Error) -> any Error {
        _ = Glibc.close(descriptor)
        _ = unlink(temporary)
        return error
    }
    do {
        try fill(FileDescriptor(rawValue: descriptor))
    } catch {
        throw abandon(error)
    }
    if let copied = mode.copied {
        // The owner first: fchown may clear set-id bits, which fchmod then puts back.
        _ = fchown(descriptor, copied.owner, copied.group)
        guard fchmod(descriptor, mode_t(copied.permissions)) == 0 else {
            throw abandon(ReplaceError(step: .chmod, path: temporary, errno: Errno(rawValue: Glibc.errno)))
        }
    }
    if case .failure(let errno) = retryingInterrupts({ fsync(descriptor) }) {
        throw abandon(ReplaceError(step: .fsync, path: temporary, errno: errno))
    }
    _ = Glibc.close(descriptor)
    try renameIntoPlace(temporary, target)
}

/// `replaceFile` for bytes already in memory.
/// The corresponding C function of the writing is `write`, EINTR retried.
public func replaceFile(_ target: String, temporary: String, mode: ReplaceMode, with bytes: [UInt8])
    throws(ReplaceError)
{
    do {
        try replaceFile(target, temporary: temporary, mode: mode) { descriptor in
            if let errno = bytes.withUnsafeBytes({ writeAll(descriptor.rawValue, $0) }) {
                throw ReplaceError(step: .write, path: temporary, errno: errno)
            }
        }
    } catch let error as ReplaceError {
        throw error
    } catch {
        preconditionFailure("the write throws only ReplaceError: \(error)")
    }
}

/// Points the symlink `link` at `destination`, replacing whatever link was there in one step: a new
/// link made at `temporary` (a leftover link of that name removed first) and renamed over `link`,
/// then the folder synced. The corresponding C functions are `lstat`, `symlink`, `rename` and
/// `unlink`.
public func replaceSymlink(_ link: String, temporary: String, pointingTo destination: String) throws(ReplaceError) {
    if (try? FileStatus.ofLink(temporary))?.kind == .symlink { _ = unlink(temporary) }
    guard symlink(destination, temporary) == 0 else {
        throw ReplaceError(step: .symlink, path: link, errno: Errno(rawValue: Glibc.errno))
    }
    try renameIntoPlace(temporary, link)
}

/// Gives the finished, synced file at `temporary` the name `target` in one step (whatever had the
/// name is replaced), durably: `renameIntoPlace` for a file another library wrote (an SQLite
/// database made whole before it is used). The corresponding C functions are `rename`, `unlink`,
/// `open` and `fsync`.
public func moveIntoPlace(_ temporary: String, over target: String) throws(ReplaceError) {
    try renameIntoPlace(temporary, target)
}

/// Renames `temporary` over `target` (removing `temporary` when that fails) and syncs the folder.
/// The one rename of the program. The corresponding C functions are `rename`, `unlink`, `open`
/// and `fsync`.
func renameIntoPlace(_ temporary: String, _ target: String) throws(ReplaceError) {
    guard rename(temporary, target) == 0 else {
        let error = ReplaceError(step: .rename, path: target, errno: Errno(rawValue: Glibc.errno))
        _ = unlink(temporary)
        throw error
    }
    syncFolder(of: target)
}

/// The rename is durable once the folder is synced; best effort (a folder that cannot be opened
/// read-only still holds the renamed file). The corresponding C functions are `open` and `fsync`.
func syncFolder(of path: String) {
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    guard
        case .success(let descriptor) = openRetrying(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    else { return }
    _ = retryingInterrupts { fsync(descriptor) }
    _ = Glibc.close(descriptor)
}
