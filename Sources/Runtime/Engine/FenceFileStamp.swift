import Dispatch
import Glibc

/// Notices a change of the fence file (modification time or size), checked at most once a second.
struct FenceFileStamp {
    let path: String
    private var stamp: (Int, Int, Int64)?
    private var lastCheck = DispatchTime.now()

    init(path: String) {
        self.path = path
        stamp = Self.read(path)
    }

    mutating func changed() -> Bool {
        let now = DispatchTime.now()
        guard now.uptimeNanoseconds - lastCheck.uptimeNanoseconds >= 1_000_000_000 else { return false }
        lastCheck = now
        let current = Self.read(path)
        guard let current, let previous = stamp else { return false }
        stamp = current
        return current != previous
    }

    /// The corresponding C function is `stat`.
    static func read(_ path: String) -> (Int, Int, Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int64(info.st_size))
    }
}
