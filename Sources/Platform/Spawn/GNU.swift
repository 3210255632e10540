#if canImport(Glibc)
    import Glibc
#endif

/// glibc functions declared only under `_GNU_SOURCE`, which Swift's Glibc module does not define;
/// looked up once with `dlsym`.
package enum GNU {
    typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let pipe2Function: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }
    static let addCloseFromFunction: AddCloseFrom? =
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }

    /// `pipe2(fds, flags)`; without it, `pipe` and `FD_CLOEXEC` set right after.
    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        if let function = pipe2Function { return function(fds, flags) }
        guard Glibc.pipe(fds) == 0 else { return -1 }
        for index in 0..<2 { _ = fcntl(fds[index], F_SETFD, FD_CLOEXEC) }
        return 0
    }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34): the child gets no descriptor of
    /// ours from `from` on. Without it, only close-on-exec descriptors stay behind.
    static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32 {
        addCloseFromFunction?(actions, from) ?? 0
    }
}
