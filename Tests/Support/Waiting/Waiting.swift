import Foundation
import Platform

/// How many times longer than on the project's own machine a state may take to come: the
/// environment's `GPSFENCE_TEST_TIME_SCALE` (at least 1); when unset, 2 for a process confined to
/// one processor (`taskset -c 0`, a one-core machine) and 1 otherwise (docs/packaging.md, "Tests on
/// a slow machine"). It lengthens deadlines only: a test that passes returns as soon as its state
/// comes, whatever the scale.
public let testTimeScale: Double = {
    guard let text = ProcessInfo.processInfo.environment["GPSFENCE_TEST_TIME_SCALE"], let scale = Double(text)
    else { return usableProcessorCount() < 2 ? 2 : 1 }
    return max(1, scale)
}()

/// `seconds` scaled by `testTimeScale`: the deadline of a wait for a state.
public func scaled(_ seconds: Double) -> Double { seconds * testTimeScale }

/// Polls `condition` every `interval` seconds until it holds or `seconds` (scaled by
/// `testTimeScale`) have passed; true when it held. The condition is asked once more at the
/// deadline, so a state that came during the last interval counts.
///
/// For a test that waits for a state (a line printed, a file written, a process gone) rather than
/// for a time. A sleep that shows that nothing happens in a given time is not a wait for a state.
@discardableResult
public func waitUntil(
    timeout seconds: Double = 30, every interval: Double = 0.02, _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(scaled(seconds))
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}
