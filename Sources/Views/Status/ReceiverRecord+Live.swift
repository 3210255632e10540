import Store

extension ReceiverRecord {
    /// The running run's own last fix and counts, over what it last wrote to the state file.
    mutating func take(_ live: LiveState) {
        updatedAt = live.updatedAt
        stoppedAt = nil
        ignoredFixes = live.ignoredFixes
        guard let fix = live.fix else { return }
        lastFixTime = fix.time
        lastFixWall = live.fixWall
        lastLat = fix.lat
        lastLon = fix.lon
        lastAccuracy = fix.accuracy
    }
}
