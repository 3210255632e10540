import Glibc
import SystemPackage

/// A folder watched for changes to the files in it, through Linux inotify: what `run` uses to
/// see its fence file replaced by rename (an editor's atomic save, `git pull`), copied over,
/// truncated and rewritten, deleted or created. Watching the folder rather than the file keeps
/// working after a rename-replace, which would leave a watch on the file itself on the old inode.
///
/// A write is seen when its writer closes the file, not at each `write`: the other files of the
/// folder (a state file and its write-ahead log, a log file), which their programs keep open and
/// write to all the time, then wake nobody.
///
/// Errors are values, as in swift-system; the descriptor is closed by `close()` or when the watch
/// goes away.
public final class DirectoryWatch: @unchecked Sendable {
    public let path: String
    public let descriptor: FileDescriptor

    /// What the kernel says happened to a name in the folder: a file open for writing closed, a
    /// name moved in or out, created or deleted. The events that can make a file's content differ,
    /// once its writer is done (`IN_MODIFY`, each write in progress, is left out).
    static let changes = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE)
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
    /// The corresponding C functions are `poll` and `read`.
    public func wait(timeout: Double) throws(Errno) -> [Change] {
        try Self.wait([self], wakingOn: nil, timeout: timeout).changes[0]
    }

    /// What one wait on several watches gave.
    public struct Wait: Sendable {
        /// The changes of each watch, in the order the watches were given.
        public var changes: [[Change]]
        /// The wake signal was given (and is drained).
        public var woken: Bool
    }

    /// Waits on `watches` and `wake` together until one of them has something, or `timeout`
    /// seconds pass (nil: until then, however long); a signal such as SIGHUP ends the wait early
    /// with nothing. The thread sleeps in between: nothing wakes it but a change or `wake`.
    /// The corresponding C functions are `poll` and `read`.
    public static func wait(
        _ watches: [DirectoryWatch], wakingOn wake: WakeSignal?, timeout: Double?
    ) throws(Errno) -> Wait {
        var descriptors = watches.map { ($0.descriptor, PollEvents.readable) }
        if let wake { descriptors.append((wake.descriptor, .readable)) }
        let ready = try poll(descriptors, timeout: timeout)
        var result = Wait(changes: [], woken: false)
        for (watch, events) in zip(watches, ready) {
            result.changes.append(events.contains(.readable) ? try watch.take() : [])
        }
        if let wake, ready.last?.contains(.readable) == true {
            wake.drain()
            result.woken = true
        }
        return result
    }
}
