import LiveLoop
import Platform

/// Replaces the file at `path` with `bytes` so that a reader (a `run` reloading its fences) sees
/// the old file or the new one, never half of one, and a crash leaves the old file whole:
/// Platform's `replaceFile`, the new file taking the old one's mode (and owner, where allowed). A
/// symlink is followed: its target is replaced, the link stays (docs/fences.md, "Adding a fence
/// where you stand").
func atomicReplace(_ path: String, with bytes: [UInt8]) throws {
    let target: String
    do {
        target = try resolvedPath(path)
    } catch {
        throw InputError.unreadable(path: path, cause: .call(error))
    }
    guard let status = try? FileStatus.of(target), status.kind == .regular else {
        throw InputError.fenceFile(path: path, .notRegular)
    }
    do {
        try replaceFile(
            target, temporary: target + ".\(currentProcessID()).new",
            mode: ReplaceMode(creation: 0o600, copying: status),
            with: bytes)
    } catch {
        throw RuntimeFailure.replace(error)
    }
}
