import Foundation
import Waiting

/// Until the run writing the state file at `state` has a fix since `since` in its receiver record
/// (its last position, written about once a second): the run knows where the receiver is.
func waitForAFixOnFile(_ state: String, since: Date = .distantPast, timeout: Double = 30) -> Bool {
    let milliseconds = Int64(max(0, since.timeIntervalSince1970) * 1000)
    return waitUntil(timeout: timeout, every: 0.2) {
        sqlite(state, "SELECT last_fix_wall >= \(milliseconds) FROM receiver") == "1"
    }
}
