import Dispatch
import Geofence
import NMEA

/// Replacing the whole fence set while the run goes on (docs/events.md "Fences that change"), for
/// every source of fences: the watched file, the broker, and any other layer. The engine thread
/// only swaps: the new set was loaded and validated elsewhere.
extension EngineLoop {
    /// Replaces the fences with `fresh`, which came from `origin` (a path, a broker URL: said in the
    /// `registered` event). In this order, each batch committed to the state file before any sink
    /// sees it, so that every sink sees the same sequence: `exit` with `"reason":"removed"` for the
    /// fences the receiver was inside of that are gone (`"changed"` for one reshaped away from the
    /// receiver), `unregistered` for the ids that are gone, `registered` for the new set, and
    /// `enter` with `initial: true` for the fences of the new set that contain the last usable fix.
    /// Unchanged fences (same id and geometry) keep their state and raise nothing.
    func replaceFences(with fresh: FenceSet, origin: String) throws {
        try replaceFences(matching: FenceSetMatch(old: fences, new: fresh), origin: origin)
    }

    /// As above, with the match of the old set to the new one made off this thread; a match made
    /// against a set that another swap has replaced since is made again.
    func replaceFences(matching prepared: FenceSetMatch, origin: String) throws {
        let match = prepared.old === fences ? prepared : FenceSetMatch(old: fences, new: prepared.new)
        let now = currentUTCTime()
        try flush()
        let leaving = leavingEvents(match, at: now)
        if !leaving.isEmpty { try deliver(leaving, fences: fences) }
        let next = EventEngine(fences: match.new, settings: configuration.settings)
        next.takeOver(from: engine, match: match)
        engine = next
        fences = match.new
        next.start(at: now) { event in
            var registered = event
            registered.message = "from \(origin)"
            batch.append(registered)
        }
        next.enterAtOnce(at: now) { batch.append($0) }
        try flush()
    }

    /// The events of the fences that go, rendered against the old set: the exits, then
    /// `unregistered`.
    private func leavingEvents(_ match: FenceSetMatch, at now: UTCTime) -> [GeofenceEvent] {
        var events: [GeofenceEvent] = []
        let departures = engine.departures(in: match)
        engine.leave(departures.removed, reason: "removed", at: now) { events.append($0) }
        engine.leave(departures.reshaped, reason: "changed", at: now) { events.append($0) }
        let gone = match.gone
        if !gone.isEmpty { events.append(.unregistered(gone, at: now)) }
        return events
    }
}

// The watched fence file (docs/running.md): loaded and validated on the watcher's thread; here,
// only what it found is taken and swapped in.
extension EngineLoop {
    /// The watcher of the fence file to follow, started; nil when the fences stay as loaded.
    /// SIGHUP asks it for a load.
    func watchFenceFile(doorbell: DispatchSemaphore) -> FenceFileWatcher? {
        guard let path = configuration.reloadPath else { return nil }
        ReloadSignal.install()
        let watcher = FenceFileWatcher(path: path, current: fences) { doorbell.signal() }
        watcher.start()
        return watcher
    }

    /// A SIGHUP is passed on to the watcher; each set it loaded is swapped in, each file it refused
    /// is an `error` event and the fences stay as they are.
    func takeFenceFileChanges(_ watcher: FenceFileWatcher) throws {
        if ReloadSignal.take() { watcher.requestReload() }
        for outcome in watcher.take() {
            switch outcome {
            case .loaded(let match):
                try replaceFences(matching: match, origin: watcher.path)
                watcher.noteCurrent(fences)
            case .refused(let problem):
                batch.append(
                    .error("reload failed, keeping the \(fences.count) fences loaded: \(problem)", at: currentUTCTime())
                )
            }
        }
    }
}
