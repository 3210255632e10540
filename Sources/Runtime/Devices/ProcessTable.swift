import Foundation

/// Running processes, read from /proc: which programs run (ModemManager, gpsd) and which hold a
/// device open.
public struct ProcessTable: Sendable {
    public struct Process: Sendable, Equatable {
        public var pid: Int
        public var name: String
    }

    public var root: String

    public init(root: String = "/proc") { self.root = root }

    public func processes() -> [Process] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.compactMap { entry in
            guard let pid = Int(entry) else { return nil }
            let comm = (try? String(contentsOfFile: "\(root)/\(entry)/comm", encoding: .utf8)) ?? ""
            return Process(pid: pid, name: comm.trimmingCharacters(in: .whitespacesAndNewlines))
        }.sorted { $0.pid < $1.pid }
    }

    public func running(_ name: String) -> [Process] { processes().filter { $0.name == name } }

    /// Processes with an open descriptor on `device` (compared after resolving links). Only the
    /// processes we may inspect are seen: all of them as root, our own otherwise.
    public func holders(of device: String, except pid: Int32 = getpid()) -> (holders: [Process], unreadable: Int) {
        let target = URL(fileURLWithPath: device).resolvingSymlinksInPath().path
        var holders: [Process] = []
        var unreadable = 0
        for process in processes() where process.pid != Int(pid) {
            guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(process.pid)/fd")
            else {
                unreadable += 1
                continue
            }
            for descriptor in descriptors {
                if let link = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "\(root)/\(process.pid)/fd/\(descriptor)"),
                    link == target || link == device
                {
                    holders.append(process)
                    break
                }
            }
        }
        return (holders, unreadable)
    }
}
