import Foundation
import Waiting

/// The calling thread's id: its name under /proc/self/task.
func currentThreadID() -> String? {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")).map {
        ($0 as NSString).lastPathComponent
    }
}

/// How many times thread `id` of this process has gone to sleep so far (the kernel's count of its
/// voluntary context switches: its wake-ups), nil once it has ended.
func threadSleeps(_ id: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8) else {
        return nil
    }
    let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
    return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
}

/// Until thread `id` has not woken for `quiet` seconds (it has settled into an idle wait), at most
/// `timeout` seconds (scaled for a slow machine); true when it settled.
func waitUntilIdle(_ id: String, quiet: Double = 0.3, timeout: Double = 10) -> Bool {
    var last = threadSleeps(id)
    var since = Date()
    return waitUntil(timeout: timeout, every: 0.05) {
        let now = threadSleeps(id)
        if now != last {
            last = now
            since = Date()
        }
        return Date().timeIntervalSince(since) >= quiet
    }
}
