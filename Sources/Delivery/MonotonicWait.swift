import Foundation
import NMEA
import Platform

extension NSCondition {
    /// Waits until signalled or until `deadline` on the monotonic clock (`monotonicSeconds`);
    /// false once the deadline has passed. Deadlines are kept on the monotonic clock so that a
    /// change of the wall clock (NTP at boot on a Pi without a real-time clock) cannot stretch or
    /// cut them; only the remaining interval is handed to the condition variable.
    func wait(untilMonotonic deadline: Double) -> Bool {
        let left = deadline - monotonicSeconds()
        guard left > 0 else { return false }
        return wait(until: Date(timeIntervalSinceNow: left))
    }
}
