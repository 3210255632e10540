import Glibc
import LiveLoop

/// Replaces the file at `path` with `bytes` so that a reader (a `run` reloading its fences) sees
/// the old file or the new one, never half of one, and a crash leaves the old file whole: the new
/// text goes to a temporary file beside it, is synced, takes the old file's mode (and owner, where
/// allowed) and is renamed over it. A symlink is followed: its target is replaced, the link stays
/// (docs/fences.md, "Adding a fence where you stand").
/// The corresponding C functions are `realpath`, `stat`, `open`, `write`, `fchmod`, `fchown`,
/// `fsync` and `rename`.
func atomicReplace(_ path: String, with bytes: [UInt8]) throws {
    guard let resolved = realpath(path, nil) else {
        throw InputError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    let target = String(cString: resolved)
    free(resolved)
    var info = stat()
    guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
        throw InputError(message: "'\(path)' is not a regular file: only a fence file is written")
    }
    let temporary = target + ".\(getpid()).new"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure("create", temporary) }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { try abandon(fd, temporary, "write") }
        written += n
    }
    // The owner first: fchown may clear set-id bits, which fchmod then puts back.
    _ = fchown(fd, info.st_uid, info.st_gid)
    guard fchmod(fd, info.st_mode & 0o7777) == 0 else { try abandon(fd, temporary, "chmod") }
    guard fsync(fd) == 0 else { try abandon(fd, temporary, "fsync") }
    close(fd)
    guard rename(temporary, target) == 0 else {
        let error = failure("rename", target)
        unlink(temporary)
        throw error
    }
    syncDirectory(of: target)
}

private func failure(_ operation: String, _ path: String) -> RuntimeFailure {
    RuntimeFailure(message: "cannot \(operation) '\(path)': \(String(cString: strerror(errno)))")
}

private func abandon(_ fd: Int32, _ temporary: String, _ operation: String) throws -> Never {
    let error = failure(operation, temporary)
    close(fd)
    unlink(temporary)
    throw error
}

/// The rename is durable once the directory is synced. The corresponding C function is `fsync`.
private func syncDirectory(of path: String) {
    let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
}
