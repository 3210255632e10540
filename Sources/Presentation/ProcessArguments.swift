import Platform

/// The process's own command line, as `ps` and /proc/PID/cmdline show it.
public enum ProcessArguments {
    /// Overwrites the password of `url` (`scheme://user:PASSWORD@host...`, as typed, percent
    /// escapes and all) with `*` in every argument that holds the URL, in place: on Linux the
    /// process list reads the argument strings from the process's memory, so from then on the
    /// password no longer shows there. (It was visible from exec until this call; a password
    /// file, `--mqtt-password-file`, never is.)
    public static func hidePassword(of url: String) {
        let text = Array(url.utf8)
        guard let password = URLPassword.range(in: text) else { return }
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
            var from = 0
            while let start = find(text, in: bytes, from: from) {
                for offset in password { argument[start + offset] = CChar(UInt8(ascii: "*")) }
                from = start + text.count
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        for start in from...(haystack.count - needle.count)
        where haystack[start..<start + needle.count].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
