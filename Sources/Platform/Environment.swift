import CMemory
import Glibc

/// The value of the environment variable `name`; nil when it is unset or empty.
/// The corresponding C function is `getenv`.
public func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}

/// This process's id. The corresponding C function is `getpid`.
public func currentProcessID() -> Int32 {
    getpid()
}

/// The processors online now. The corresponding C function is `sysconf(_SC_NPROCESSORS_ONLN)`.
public func onlineProcessorCount() -> Int {
    Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

/// The processors this process may run on: its CPU affinity (`taskset`, a container's cpuset),
/// which may be fewer than those online; at least 1. The processors online when the call fails.
/// The corresponding C function is `sched_getaffinity` (the set's bits are counted here: `CPU_COUNT`
/// is a macro).
public func usableProcessorCount() -> Int {
    // glibc's cpu_set_t: 1024 processors, a bit each.
    var mask = [UInt8](repeating: 0, count: 128)
    let result = mask.withUnsafeMutableBytes { sched_getaffinity(0, UInt($0.count), $0.baseAddress) }
    guard result == 0 else { return max(onlineProcessorCount(), 1) }
    return max(mask.reduce(0) { $0 + $1.nonzeroBitCount }, 1)
}

/// This machine's host name. The corresponding C function is `gethostname`.
public func hostName() -> String {
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, name.count - 1)
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
