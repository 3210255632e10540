import Dispatch
import Events
import Fences
import NMEA
import Platform

/// Replacing the whole fence set while the run goes on (docs/events.md "Fences that change"), for
/// every source of fences: the watched file, the broker, and any other layer. The engine thread
/// only swaps: the new set was loaded and validated elsewhere.
extension EngineLoop {
    /// Replaces the fences with `fresh`, which came from `origin` (a path, a broker URL: said in the
    /// `registered` event). In this order, each batch committed to the state file before any sink
    /// sees it, so that every sink sees the same sequence: `exit` with `"reason":"removed"` for the
    /// fences the receiver was inside of that are gone (`"changed"` for one reshaped away from the
    /// receiver), `unregistered` for the ids that are gone, `registered` for the new and reshaped
    /// fences of the new set (empty when there are none: the reload is still said), and
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
        next.keepRegistrationTimes(layers.creationTimes(in: match.new))
        engine = next
        fences = match.new
        next.start(at: now, registering: match.arrivals, message: "from \(origin)") { batch.append($0) }
        next.enterAtOnce(at: now) { batch.append($0) }
        try flush()
    }

    /// The events of the fences that go, rendered against the old set: the exits, then
    /// `unregistered`.
    private func leavingEvents(_ match: FenceSetMatch, at now: UTCTime) -> [GeofenceEvent] {
        var events: [GeofenceEvent] = []
        let departures = engine.departures(in: match)
        engine.leave(departures.removed, reason: .removed, at: now) { events.append($0) }
        engine.leave(departures.reshaped, reason: .changed, at: now) { events.append($0) }
        let gone = match.gone
        if !gone.isEmpty { events.append(.unregistered(gone, at: now)) }
        return events
    }
}

// The watched fence file and the broker (docs/running.md): sets loaded and validated on the
// feed's thread; here, only what it found is taken and swapped in.
extension EngineLoop {
    /// The feeds of fence sets to follow, started: the fence file's watcher (SIGHUP asks it for a
    /// load), and the feed the caller gave (the broker). Empty when the fences stay as loaded.
    func startFenceFeeds(doorbell: DispatchSemaphore) -> [FenceFeed] {
        var feeds: [FenceFeed] = []
        if let path = configuration.reloadPath {
            ReloadSignal.install()
            feeds.append(FenceFileWatcher(path: path, current: fences) { doorbell.signal() })
        }
        if let make = configuration.fenceFeed { feeds.append(make(fences) { doorbell.signal() }) }
        for feed in feeds { feed.start() }
        return feeds
    }

    /// A SIGHUP is passed on; each set a feed loaded is swapped in (and, when the feed says so,
    /// kept in the state file as its last good set); each refusal is an `error` event and the
    /// fences stay as they are.
    func takeFenceChanges(_ feeds: [FenceFeed]) throws {
        if ReloadSignal.take() { for feed in feeds { feed.requestReload() } }
        for feed in feeds {
            for outcome in feed.take() {
                switch outcome {
                case .loaded(let match, let keep):
                    // With the anchor or OwnTracks regions over the file, the set swapped in is the
                    // new file's with the layers over it, matched here.
                    let fresh = layers.replaceMain(match.new)
                    let layered = fresh === match.new ? match : FenceSetMatch(old: fences, new: fresh)
                    try replaceFences(matching: layered, origin: feed.origin)
                    if let keep {
                        try store?.saveAcceptedFenceSet(
                            source: feed.origin, geojson: keep, at: currentUTCTime().millisecondsSinceEpoch)
                    }
                    for other in feeds { other.noteCurrent(fences) }
                case .refused(let problem):
                    error(.fenceFeed(problem))
                }
            }
        }
    }
}
