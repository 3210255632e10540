import CFileSpace

#if canImport(Glibc)
    import Glibc
#endif

/// Reserves the disk blocks of the first `length` bytes of the file at `path`, keeping its size.
/// Best effort: false when the file cannot be opened or the filesystem cannot reserve.
/// The corresponding C call is `fallocate(FALLOC_FL_KEEP_SIZE)`.
public func reserveDiskBlocks(path: String, length: Int) -> Bool {
    let descriptor = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return gpsfence_reserve_blocks(descriptor, length) == 0
}
