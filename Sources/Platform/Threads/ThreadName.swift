#if canImport(Glibc)
    import Glibc
#endif

/// Names the calling thread as `top`, `ps -L` and `/proc/PID/task/*/comm` show it, so that the CPU
/// and wake-ups of each thread can be told apart (scripts/bench_live_cost.py --threads). Linux keeps
/// 15 bytes of a name, hence the short `gf-...` names. Foundation's `Thread.name` does not reach the
/// kernel on Linux, and Swift does not see glibc's `pthread_setname_np`, so this writes the name to
/// `/proc/thread-self/comm`, which is what that function does. Best effort: without /proc the thread
/// keeps the program's name. Called by `runThread` only, so that no thread of ours is started
/// without its signal stack. The corresponding C functions are `open` and `write`.
func nameThisThread(_ name: String) {
    #if canImport(Glibc)
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    #endif
}
