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

    /// `comm` of a gpsfence process (the binary's name).
    public static let ownName = "gpsfence"

    /// The subcommand a running gpsfence was started with (`run`, `record`, `simulate`): the first
    /// word of its command line after the program that is not an option; nil when it cannot be read.
    public func subcommand(of pid: Int) -> String? {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(pid)/cmdline") else { return nil }
        return data.split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) }
            .first { !$0.hasPrefix("-") }
    }

    /// The state file a running gpsfence uses, as its command line names it (`--state PATH` or
    /// `--state=PATH`, relative to its working directory); nil when it names none or cannot be read.
    public func statePath(of pid: Int) -> String? {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(pid)/cmdline") else { return nil }
        let arguments = data.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var path: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--state", index + 1 < arguments.count {
                path = arguments[index + 1]
            } else if argument.hasPrefix("--state=") {
                path = String(argument.dropFirst("--state=".count))
            }
        }
        guard let path, !path.isEmpty else { return nil }
        if path.hasPrefix("/") { return path }
        guard let directory = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(root)/\(pid)/cwd") else {
            return nil
        }
        return directory + "/" + path
    }
}
