import Foundation
import Platform
import Testing

/// A contract check shared by the threads of one test.
private final class Shared: Sendable {
    let check = OneThreadAtATime("Shared.check")
}

@Suite struct OneThreadAtATimeTests {
    @Test func turnsTakenOneAfterAnotherAndNestedUsesPass() {
        let shared = Shared()
        let outer = shared.check.enter()
        let nested = shared.check.enter()
        shared.check.leave(nested)
        shared.check.leave(outer)
        let done = DispatchSemaphore(value: 0)
        let other = Thread {
            let claim = shared.check.enter()
            shared.check.leave(claim)
            done.signal()
        }
        other.start()
        done.wait()
        let again = shared.check.enter()
        shared.check.leave(again)
    }

    @Test func aSecondThreadInsideAtTheSameTimeStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            let shared = Shared()
            let inside = DispatchSemaphore(value: 0)
            let holder = Thread {
                _ = shared.check.enter()
                inside.signal()
                while true { sleep(60) }
            }
            holder.start()
            inside.wait()
            _ = shared.check.enter()
        }
    }

    @Test func aNestedLeaveDoesNotEndTheOuterUse() async {
        await #expect(processExitsWith: .failure) {
            let shared = Shared()
            _ = shared.check.enter()
            shared.check.leave(shared.check.enter())
            let inside = DispatchSemaphore(value: 0)
            let other = Thread {
                inside.signal()
                _ = shared.check.enter()
            }
            other.start()
            inside.wait()
            while true { sleep(60) }
        }
    }
}
