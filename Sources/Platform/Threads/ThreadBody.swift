#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` as the whole work of a thread we started: the thread is named (`nameThisThread`) and,
/// for the body's duration, has a signal stack of its own.
///
/// Why the signal stack: a crash is reported by Swift's backtracer from a signal handler, and a
/// handler runs on the thread's own stack unless it has another. When that stack is the thing that
/// ran out (a stack overflow, on the small stacks some of our threads ask for), the handler cannot
/// run and the process ends without a word: no crash report, a test log that just stops. With one,
/// the backtracer says which thread crashed and where. Threads we do not start (the main thread,
/// the pools of Swift's concurrency and of SwiftNIO) are left as they are.
/// The corresponding C function is `sigaltstack`.
public func runThread(named name: String, _ body: () -> Void) {
    nameThisThread(name)
    #if canImport(Glibc)
        let size = 1 << 16
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        var own = stack_t(ss_sp: memory, ss_flags: 0, ss_size: size)
        var previous = stack_t()
        let installed = sigaltstack(&own, &previous) == 0
        defer {
            // Put back what the thread had before freeing the memory: a signal after this must not
            // land on freed memory.
            if installed { _ = sigaltstack(&previous, nil) }
            memory.deallocate()
        }
    #endif
    body()
}
