#if canImport(Glibc)
    import Glibc
#endif

/// A value behind a lock, with `Synchronization.Mutex`'s `withLock`, but one that ThreadSanitizer
/// sees: on Linux, Mutex locks with raw futex calls, which TSan does not know, so the TSan step of
/// CI (docs/packaging.md) took every access a Mutex guards for a race. This lock is a
/// `pthread_mutex_t` (`pthread_mutex_lock`, `pthread_mutex_unlock`), which TSan follows.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the value if the lock is free now; nil, without waiting, when it is held.
    /// The corresponding C function is `pthread_mutex_trylock`.
    public func withLockIfAvailable<Result>(_ body: (inout Value) -> Result) -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
