import Events
import Foundation
import LiveLoop
import Presentation
import Store
import Views

/// `gpsfence status --forget TARGET`: removes from the state file what it holds for a delivery
/// target that the last run no longer had (its outbox rows, its track sync cursor), and nothing
/// else. TARGET is written as `status` shows it (a password in it as `***`) or in full.
public struct ForgetTargetJob {
    public var statePath: String
    public var target: String

    public init(statePath: String, target: String) {
        self.statePath = statePath
        self.target = target
    }

    /// Returns the line to print; throws `InputError` for a target the file does not hold or that
    /// the last run still delivers to.
    public func run() throws -> String {
        guard FileManager.default.fileExists(atPath: statePath) else {
            throw StateFileMissing(path: statePath, need: .runState)
        }
        // A run starting meanwhile could make the target its own, whose queued events it delivers.
        let lock = try StateLock.acquire(statePath: statePath)
        defer { withExtendedLifetime(lock) {} }
        let store = try StateStore(path: statePath)
        let known = try store.knownTargets()
        let matching = known.filter { $0 == target || URLPassword.redacted($0) == target }
        guard let stored = matching.first, matching.count == 1 else {
            let shown = known.map(URLPassword.redacted).sorted()
            throw InputError.stateFile(
                path: statePath, .noSuchTarget(target, ambiguous: !matching.isEmpty, known: shown))
        }
        if let current = try store.lastRunTargets(), current.contains(stored) {
            throw InputError.stateFile(path: statePath, .targetOfLastRun(target))
        }
        let removed = try store.forgetTarget(stored)
        return
            "forgot \(URLPassword.redacted(stored)): \(removed) row\(removed == 1 ? "" : "s") of it removed from \(statePath)"
    }
}
