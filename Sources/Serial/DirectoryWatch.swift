import Glibc
import SystemPackage

/// A folder watched for changes to the files in it, through Linux inotify: what `run` uses to
/// see its fence file replaced by rename (an editor's atomic save, `git pull`), copied over,
/// truncated and rewritten, deleted or created. Watching the folder rather than the file keeps
/// working after a rename-replace, which would leave a watch on the file itself on the old inode.
///
/// Errors are values, as in swift-system; the descriptor is closed by `close()` or when the watch
/// goes away.
public final class DirectoryWatch: @unchecked Sendable {
    public let path: String
    public let descriptor: FileDescriptor

    /// What the kernel says happened to a name in the folder: writes finished or in progress, a
    /// name moved in or out, created or deleted. The events that can make a file's content differ.
    static let changes = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
    /// The folder itself went away or was replaced: the watch no longer sees anything.
    static let folderGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)

    /// Starts watching `path` (a folder), non-blocking and close-on-exec.
    /// The corresponding C functions are `inotify_init1` and `inotify_add_watch`.
    public init(folder path: String) throws(SerialError) {
        self.path = path
        let raw = try retryingInterrupts { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }.get("inotify_init1", path)
        descriptor = FileDescriptor(rawValue: raw)
        let mask = Self.changes | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        switch retryingInterrupts({ inotify_add_watch(raw, path, mask) }) {
        case .success: break
        case .failure(let errno):
            _ = Glibc.close(raw)
            throw SerialError(operation: "inotify_add_watch", path: path, errno: errno)
        }
    }

    deinit { _ = Glibc.close(descriptor.rawValue) }

    /// One change the kernel reported: the name inside the folder (empty for the folder itself).
    public struct Change: Sendable, Equatable {
        public var name: String
        /// The folder itself was deleted or moved: watch it again.
        public var folderGone: Bool
    }

    /// The changes queued now, without waiting (empty when none): poll `descriptor` for
    /// readability first.
    /// The corresponding C function is `read`.
    public func take() throws(Errno) -> [Change] {
        var changes: [Change] = []
        let size = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count: Int
            switch retryingInterrupts({ Glibc.read(descriptor.rawValue, buffer.baseAddress, size) }) {
            case .success(let read): count = read
            case .failure(let errno) where errno == .wouldBlock || errno == .resourceTemporarilyUnavailable:
                return changes
            case .failure(let errno): throw errno
            }
            guard count > 0 else { return changes }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + header
                let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<nameStart + Int(event.len)])
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                changes.append(Change(name: name, folderGone: event.mask & Self.folderGone != 0))
                offset = nameStart + Int(event.len)
            }
        }
    }

    /// Waits up to `timeout` seconds for changes (a signal ends the wait early, with none).
    public func wait(timeout: Double) throws(Errno) -> [Change] {
        let ready = try poll([(descriptor, .readable)], timeout: timeout)
        guard ready.first?.contains(.readable) == true else { return [] }
        return try take()
    }
}
