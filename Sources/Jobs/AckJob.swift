import Events
import Foundation
import LiveLoop
import NMEA
import Platform
import Store
import Views

/// `gpsfence ack` (docs/running.md, "Alarms"): answers the alarm from any shell. The answer is
/// written into the state file, then the run that holds the file's lock is told by SIGUSR1 to take
/// it; the command waits until the run says the alarm is acknowledged. With no run holding the
/// file, the answer waits there for the next run, which starts silent.
public struct AckJob {
    public let statePath: String
    /// How long to wait for the run to take the answer.
    public var wait = 3.0

    public init(statePath: String) { self.statePath = statePath }

    /// What happened, for people.
    public enum Outcome: Equatable {
        /// The running run acknowledged it (pid).
        case acknowledged(pid: Int)
        /// No run holds the file: the next one takes the answer.
        case leftForTheNextRun
    }

    /// - Throws: `StateFileMissing` (exit status 2, as for every command given a state file that
    ///   is not there); `RuntimeFailure` (exit status 1) when no alarm sounds or the run did not answer.
    public func run() throws -> Outcome {
        guard FileManager.default.fileExists(atPath: statePath) else {
            throw StateFileMissing(path: statePath, need: .alarm)
        }
        let store = try StateStore(path: statePath)
        guard let latch = try store.alarmLatch(), latch.unanswered else {
            throw RuntimeFailure.alarmAnswer(statePath: statePath, .noAlarm)
        }
        try store.requestAcknowledgement(by: .command, at: currentUTCTime())
        let holder: Int
        do {
            // Nobody holds the file: the claim is let go at once, and the answer waits for the next run.
            _ = try StateLock.acquire(statePath: statePath)
            return .leftForTheNextRun
        } catch let inUse {
            guard let pid = inUse.holder else { throw inUse }
            holder = pid
        }
        // Only a `run` that says in its lock file that it answers is signalled: SIGUSR1 would end
        // a `replay` (or an older gpsfence) holding the file.
        guard StateLock.requestAnswerer(statePath: statePath) == holder, RunRequest.send(to: holder) else {
            throw RuntimeFailure.alarmAnswer(statePath: statePath, .holderCannotBeTold(pid: holder))
        }
        let deadline = monotonicSeconds() + wait
        while monotonicSeconds() < deadline {
            if try store.alarmLatch()?.unanswered != true { return .acknowledged(pid: holder) }
            napSeconds(0.05)
        }
        throw RuntimeFailure.alarmAnswer(statePath: statePath, .notTaken(pid: holder, wait: wait))
    }
}
