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

/// This machine's host name. The corresponding C function is `gethostname`.
public func hostName() -> String {
    var name = [CChar](repeating: 0, count: 256)
    gethostname(&name, name.count - 1)
    return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
