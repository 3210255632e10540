import Foundation
import Glibc
import Platform
import SystemPackage
import Testing

/// `sleepUntil(monotonicSeconds:)`, the reader's sleep to a foretold time, and the timer slack
/// that bounds how late its wake-up may come.
@Suite struct SleepUntilTests {
    @Test func wakesAtTheDeadlineNeverBefore() throws {
        for pause in [0.0005, 0.002, 0.02] {
            let deadline = monotonicSeconds() + pause
            try sleepUntil(monotonicSeconds: deadline).get()
            #expect(monotonicSeconds() >= deadline, "\(pause)")
        }
    }

    @Test func aDeadlinePastReturnsAtOnce() throws {
        let start = monotonicSeconds()
        try sleepUntil(monotonicSeconds: start - 1).get()
        // Generous: only a sleep of about the second asked would be wrong.
        #expect(monotonicSeconds() - start < 0.5)
    }

    @Test func aDeadlineTheClockCannotHoldIsAnErrorValue() {
        for deadline in [-1.0, .infinity, .nan] {
            #expect(throws: Errno.invalidArgument) { try sleepUntil(monotonicSeconds: deadline).get() }
        }
    }

    /// A signal handled during the sleep (EINTR) does not end it before its deadline.
    @Test func aSignalDoesNotEndTheSleepEarly() {
        CaughtSignals.install([SIGURG], restartsCalls: false)
        _ = CaughtSignals.take(SIGURG)
        let sleeper = Locked<pthread_t?>(nil)
        let woke = Locked<(deadline: Double, at: Double)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            sleeper.withLock { $0 = pthread_self() }
            let deadline = monotonicSeconds() + 0.4
            _ = sleepUntil(monotonicSeconds: deadline)
            woke.withLock { $0 = (deadline, monotonicSeconds()) }
            done.signal()
        }
        thread.start()
        while sleeper.withLock({ $0 }) == nil { napSeconds(0.001) }
        napSeconds(0.05)
        if let target = sleeper.withLock({ $0 }) { pthread_kill(target, SIGURG) }
        done.wait()
        #expect(CaughtSignals.take(SIGURG), "the signal was not handled")
        let times = woke.withLock { $0 }
        #expect(times.map { $0.at >= $0.deadline } == true, "\(String(describing: times))")
    }

    /// The slack is the calling thread's own: another thread's is left as it was.
    @Test func theTimerSlackIsSetForTheCallingThreadOnly() throws {
        let before = timerSlackNanoseconds()
        let seen = Locked<(set: Result<Void, Errno>, after: Int)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let set = setTimerSlack(nanoseconds: 5000)
            seen.withLock { $0 = (set, timerSlackNanoseconds()) }
            done.signal()
        }
        thread.start()
        done.wait()
        let result = try #require(seen.withLock { $0 })
        #expect(throws: Never.self) { try result.set.get() }
        #expect(result.after == 5000)
        #expect(timerSlackNanoseconds() == before)
        #expect(throws: Errno.invalidArgument) { try setTimerSlack(nanoseconds: 0).get() }
    }
}
