import Delivery
import Events
import Fences
import NMEA
import Platform

// The alarm's part of the loop (docs/running.md, "Alarms"): its answers taken in the engine's
// round, the anchor distance it watches, and the alarm a restart finds still sounding.
extension EngineLoop {
    /// The answers' doorbell, and Enter on the terminal of a live run (`gpsfence ack`'s SIGUSR1 is
    /// the run's `RunRequest`, installed before it claims the state file).
    func startAlarmAnswers(live: Bool, ring: @escaping @Sendable () -> Void) -> TerminalAnswers? {
        guard alarms != nil else { return nil }
        configuration.alarmAnswers.wakeOnAnswer(ring)
        guard live else { return nil }
        let terminal = TerminalAnswers(answers: configuration.alarmAnswers)
        terminal?.start()
        return terminal
    }

    func stopAlarmAnswers(_ terminal: TerminalAnswers?) {
        terminal?.stop()
        configuration.alarmAnswers.wakeOnAnswer(nil)
    }

    /// Whether an answer waits for the engine thread.
    var alarmAnswersWait: Bool {
        alarms != nil && configuration.alarmAnswers.hasPending
    }

    /// At the start of a live run: the answers `gpsfence ack` left while no run held the file, then
    /// the alarm said again if it still sounds.
    func beginAlarm() throws {
        guard alarms != nil else { return }
        try acknowledge(try store?.takeAcknowledgementRequests() ?? [])
        if let again = alarms?.announcement(at: currentUTCTime(), fences: fences) { batch.append(again) }
        try flush()
    }

    /// The answers that arrived, each an `alarm_acknowledged` when an alarm sounds.
    func takeAlarmAnswers() throws {
        guard alarms != nil else { return }
        try acknowledge(configuration.alarmAnswers.take())
    }

    /// The answers `gpsfence ack` wrote into the state file (it signals the run: `RunRequest`).
    func takeStoredAlarmAnswers() throws {
        guard alarms != nil else { return }
        try acknowledge(try store?.takeAcknowledgementRequests() ?? [])
    }

    private func acknowledge(_ answers: [AlarmAcknowledger]) throws {
        for who in answers {
            if let event = alarms?.acknowledge(by: who, at: currentUTCTime(), fences: fences) { batch.append(event) }
        }
        try flush()
    }

    /// `anchor_warning` once the boat passes the threshold; armed again once it is back 5 m (or a
    /// tenth of the threshold, if more) inside it, so that swinging about it does not chatter.
    private func warnOfTheAnchor(_ distance: Double, threshold: Double, fix: Fix, time: UTCTime) {
        if distance < threshold - max(5, threshold / 10) {
            anchorWarningArmed = true
        } else if distance >= threshold, anchorWarningArmed,
            let anchor = (0..<fences.count).reversed().first(where: { FenceLayers.isAnchor(fences, $0) })
        {
            anchorWarningArmed = false
            batch.append(.anchorWarning(anchor: anchor, distance: distance, at: time, location: .init(fix)))
        }
    }

    /// A usable fix ends a `fix_lost` alarm still kept (one saved by an earlier run).
    func noteUsableFix(_ fix: Fix) throws {
        guard let time = fix.time, (fix.accuracy ?? 0) <= configuration.settings.maxAccuracy,
            let cleared = alarms?.usableFix(at: time, fences: fences)
        else { return }
        batch.append(cleared)
        try flush()
    }

    /// The boat's distance from the anchor at a usable fix; a drag twice as far as when the
    /// alarm was answered sounds it again.
    func noteAnchorDistance(_ fix: Fix) {
        guard let anchor = layers.layers.anchor, let time = fix.time,
            (fix.accuracy ?? 0) <= configuration.settings.maxAccuracy
        else { return }
        let circle = anchor.circle
        let distance = Geodesy.haversine(lat1: fix.latitude, lon1: fix.longitude, lat2: circle.lat, lon2: circle.lon)
        anchorDistance = distance
        layers.noteAnchorDistance(distance)
        if layers.takeFirstFixCheck(), distance > circle.radius,
            let index = (0..<fences.count).reversed().first(where: { FenceLayers.isAnchor(fences, $0) }),
            !engine.fenceState(index).inside
        {
            batch.append(.outsideTheAnchor(anchor: index, at: time, location: .init(fix)))
        }
        if let share = configuration.layers.anchorWarning {
            warnOfTheAnchor(distance, threshold: share * circle.radius, fix: fix, time: time)
        }
        if let again = alarms?.anchorDistance(distance, at: time, location: .init(fix), fences: fences) {
            batch.append(again)
        }
    }
}
