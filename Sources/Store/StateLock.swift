import Foundation
import Platform

/// The claim of one `run` on its state file (docs/running.md): two runs writing one state file
/// would each take the other's fence states for their own and log every event twice. The claim is
/// an exclusive `flock` on a lock file beside the state file (`STATE.lock`, holding the claimer's
/// pid for the message the second run gives), not on the database itself: SQLite's own locks are
/// POSIX record locks, which a second descriptor on the same file would drop when it closes. The
/// kernel releases the claim when the process ends, however it ends; the lock file stays (removing
/// it would let a third run lock a new file while the second still holds the old one).
public final class StateLock: @unchecked Sendable {
    public var path: String { file.path }
    private let file: LockFile

    /// The lock file of the state file at `statePath`.
    public static func lockPath(for statePath: String) -> String { statePath + ".lock" }

    /// The lock file's second line when the claimer answers `RunRequest`s.
    static let answersRequests = "answers SIGUSR1"

    /// Claims the state file at `statePath`, or says who has it.
    /// Through Platform's `LockFile` (mode 0600, `flock(LOCK_EX | LOCK_NB)`).
    /// - Parameter answersRequests: the caller installed `RunRequest` (the lock file
    ///   says so, for `fences add --here`).
    public static func acquire(
        statePath: String, answersRequests: Bool = false
    ) throws(StateInUse) -> StateLock {
        let path = lockPath(for: statePath)
        let file: LockFile
        do {
            file = try LockFile(claiming: path)
        } catch {
            switch error {
            case .failed(let failure): throw StateInUse(statePath: statePath, holder: nil, lockFailure: failure)
            case .held(let note): throw StateInUse(statePath: statePath, holder: readPID(note), lockFailure: nil)
            }
        }
        let text = "\(currentProcessID())\n" + (answersRequests ? Self.answersRequests + "\n" : "")
        file.write(note: Array(text.utf8))
        return StateLock(file: file)
    }

    private init(file: LockFile) {
        self.file = file
    }

    private static func readPID(_ bytes: [UInt8]) -> Int? {
        guard !bytes.isEmpty else { return nil }
        let firstLine = bytes.prefix { $0 != UInt8(ascii: "\n") }
        return Int(String(decoding: firstLine, as: UTF8.self).trimmingCharacters(in: .whitespaces))
    }

    /// The `run` that holds the state file at `statePath` and answers requests (SIGUSR1): the
    /// gpsfence that has its lock file open (so never a stale pid) and whose lock file says it
    /// answers. Nil when no run holds it, or one that does not answer (an older version).
    public static func requestAnswerer(statePath: String) -> Int? {
        let path = lockPath(for: statePath)
        guard let bytes = try? readWholeFile(path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.count >= 2, lines[1] == answersRequests, let pid = Int(lines[0]) else { return nil }
        let holders = ProcessTable().holders(of: path).holders
        return holders.contains { $0.pid == pid && $0.name == ProcessTable.ownName } ? pid : nil
    }
}

/// Another process holds the state file (or its lock file cannot be made).
public struct StateInUse: Error, Sendable, CustomStringConvertible {
    public var statePath: String
    public var holder: Int?
    /// Why the lock file could not be opened, when that is the trouble.
    public var lockFailure: FileCallError?

    public var description: String {
        if let lockFailure {
            return
                "cannot lock the state file '\(statePath)': \(StateLock.lockPath(for: statePath)): \(lockFailure.reason)"
        }
        return "the state file '\(statePath)' is in use by another gpsfence run"
            + (holder.map { " (pid \($0))" } ?? "")
            + "; two runs must not share one state file: stop that one, or give this one its own --state"
    }
}
