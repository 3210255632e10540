#if canImport(Glibc)
    import Glibc
#endif

/// Why `posix_spawn` (or `pipe2`) failed: an `errno` value.
public struct SpawnError: Error, Sendable, Equatable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public var description: String { String(cString: strerror(rawValue)) }
}
