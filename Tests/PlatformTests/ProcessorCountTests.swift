import Foundation
import Platform
import Testing

/// The processors a process may use, as the kernel also says them in `/proc/self/status`.
@Suite struct ProcessorCountTests {
    /// `Cpus_allowed_list`, e.g. `0-3,6`: the number of processors it names.
    static func allowedByProc() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
        return try list.split(separator: ",").reduce(0) { total, range in
            let ends = range.split(separator: "-").compactMap { Int($0) }
            let first = try #require(ends.first, "\(list)")
            return total + (ends.count == 2 ? ends[1] - first + 1 : 1)
        }
    }

    @Test func theAffinityCountIsWhatTheKernelLists() throws {
        #expect(usableProcessorCount() == (try Self.allowedByProc()))
        #expect(usableProcessorCount() <= onlineProcessorCount())
    }
}
