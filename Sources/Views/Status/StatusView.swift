import Events
import Fences
import Foundation
import JSONOutput
import NMEA
import Presentation
import Store

/// What a running (or stopped) `run` knows now, for `gpsfence status` (docs/report.md): read from the
/// state file while `run` may be writing it (WAL lets readers in), and from the fence file that
/// run remembered there.
public struct StatusReport: Sendable {
    public struct FenceCard: Sendable {
        public var id: String
        public var idJSON: String
        public var name: String?
        public var inside: Bool
        /// Inside since (ms since 1970), when inside.
        public var since: Int64?
        /// Metres from the last fix to the boundary (negative: inside), when there is a fix.
        public var distance: Double?
        public var visitsThisMonth: Int
        /// The run never judged this fence: it is not in the file the run had (the file changed
        /// after the run stopped), so whether the receiver is inside it is only the distance's say.
        public var notWatched = false
    }

    public struct Target: Sendable {
        public var name: String
        public var counters: OutboxCounters
        /// Not a target of the last run (its rows are from an earlier one): shown apart, and
        /// `status --forget` removes it.
        public var previous = false
    }

    public var statePath: String
    public var receiver: ReceiverRecord
    public var running: Bool
    /// Wall clock when the status was taken, ms.
    public var now: Int64
    public var odometerToday: Double
    /// The zone whose day "today" and whose month "this month" are (`America/New_York`, `UTC`).
    public var timezone = "UTC"
    /// Fences inside, then the nearest, then the others visited this month.
    public var cards: [FenceCard]
    public var targets: [Target]
    /// The track sync's servers (docs/running.md): backlog, last acknowledged point, last error.
    public var sync: [SyncCursorRecord] = []
    /// Servers of an earlier run or a `gpsfence sync`, not of the last run.
    public var previousSync: [SyncCursorRecord] = []
    /// The anchor watch, when the run has one.
    public var anchor: AnchorStatus?
    /// The run's alarm, while it sounds or is answered with its condition lasting.
    public var alarm: AlarmLatch?
    /// Whether the position can be trusted: the last `integrity` event; nil when none was said.
    public var integrity: GeofenceEvent.Integrity?
    /// The shell command that answers the alarm (`AckCommand`): with `--state` when the status
    /// was read from a file given by it.
    public var ackCommand = AckCommand.text(statePath: nil)
    /// Why the fences could not be shown, if they could not.
    public var fenceProblem: String?
    /// The running run answered on its local channel: the last fix, the odometer and the anchor
    /// distance are its own now, not the state file's last write.
    public var live = false
    /// A fence file larger than Home Assistant discovery gives every fence a sensor for, when the
    /// last run published to a broker: how to choose the fences that get one.
    public var homeAssistantNote: String?

    /// The run is alive when it has not said it stopped and touched the file recently: it does with
    /// each track write (every 60 s unless `--track-write-interval` says otherwise, which the run
    /// notes in the file; a file that does not say is from when it was 30 s), so within one and a
    /// half of its intervals, 45 s at the least.
    static func aliveWindow(_ receiver: ReceiverRecord) -> Int64 {
        max(45_000, (receiver.writeInterval ?? 30_000) * 3 / 2)
    }

    /// Reads the status from the state file at `path`. A missing or unreadable file is bad input.
    /// "Today" (the odometer) and "this month" (visits) are those of `calendar`.
    /// - Parameter live: what the running run answered on its local channel (`LiveState`), taken
    ///   over the file's last fix, odometer and anchor distance; nil for a stopped run.
    public static func read(
        statePath path: String, now: Int64, nearest: Int = 5, calendar: LocalCalendar = .utc, live: LiveState? = nil
    ) throws -> StatusReport {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StateFileMissing(path: path, need: .runState)
        }
        let store = try StateStore(path: path, access: .readOnly)
        var receiver = try store.receiver()
        if let live { receiver.take(live) }
        let running =
            live != nil
            || receiver.stoppedAt == nil && receiver.updatedAt.map { now - $0 <= aliveWindow(receiver) } == true
        let date = calendar.day(of: now)
        let today = Int64(date.daysSinceEpoch)
        let visits = try store.visitReport(year: date.year, month: date.month, calendar: calendar)
        let lastRunTargets = try store.lastRunTargets()
        let targets = try store.outboxTargets().map { target in
            Target(
                name: redacted(target), counters: try store.counters(target: target),
                previous: lastRunTargets.map { !$0.contains(target) } ?? false)
        }
        var report = StatusReport(
            statePath: path, receiver: receiver, running: running, now: now,
            odometerToday: try store.odometer(day: today),
            cards: [], targets: targets)
        report.live = live != nil
        if let live, let metres = live.odometerToday, live.odometerDay == today { report.odometerToday = metres }
        report.timezone = calendar.name
        for cursor in try store.syncCursors() {
            var shown = cursor
            shown.target = redacted(cursor.target)
            if lastRunTargets.map({ !$0.contains(cursor.target) }) ?? false {
                report.previousSync.append(shown)
            } else {
                report.sync.append(shown)
            }
        }
        let states = try store.fenceStates()
        report.anchor = try AnchorStatus.read(store, receiver: receiver, states: states)
        if let largest = live?.anchorMaxDistance, let anchor = report.anchor {
            report.anchor?.maxDistance = max(anchor.maxDistance ?? 0, largest)
        }
        report.alarm = try store.alarmLatch()
        report.integrity = try store.lastIntegrity()
        guard let fencesPath = receiver.fencesPath, !fencesPath.isEmpty else {
            // An anchor watch runs without a fence file.
            if report.anchor == nil {
                report.fenceProblem = "the state file names no fence file (it was written by an older gpsfence)"
            }
            return report
        }
        let fences: FenceSet
        do { fences = try FenceSet.load(path: fencesPath) } catch {
            report.fenceProblem = "cannot read the fence file '\(fencesPath)': \(error.message)"
            return report
        }
        if fences.count > Limits.homeAssistantEveryFenceUpTo,
            lastRunTargets?.contains(where: { $0.lowercased().hasPrefix("mqtt") }) == true
        {
            report.homeAssistantNote =
                "\(fences.count) fences, more than the \(Limits.homeAssistantEveryFenceUpTo) that get a sensor each "
                + "with --homeassistant; give a fence the property \"homeassistant\": true for a sensor"
        }
        let changedAfterRun = !running && fileChanged(fencesPath, after: receiver.stoppedAt ?? receiver.updatedAt)
        var order: [Int] = []
        var since: [Int: Int64] = [:]
        for state in states {
            if let fence = fences.ids.firstIndex(exactly: state.fenceID) {
                since[fence] = state.enterTime
                order.append(fence)
            }
        }
        var distances: [Int: Double] = [:]
        if let lat = receiver.lastLat, let lon = receiver.lastLon {
            for (fence, distance) in fences.nearestFences(lat: lat, lon: lon, count: nearest) {
                distances[fence] = distance
                if !order.contains(fence) { order.append(fence) }
            }
        }
        var visitCount: [FenceID: Int] = [:]
        var visited: [Int] = []
        for fence in visits.fences {
            visitCount[fence.fenceID] = fence.count
            if let index = fences.ids.firstIndex(exactly: fence.fenceID) { visited.append(index) }
        }
        for fence in Set(visited).sorted() where !order.contains(fence) { order.append(fence) }
        report.cards = order.map { fence in
            let id = fences.ids[fence]
            var distance = distances[fence]
            if distance == nil, let lat = receiver.lastLat, let lon = receiver.lastLon {
                distance = fences.signedDistance(fence: fence, lat: lat, lon: lon)
            }
            // Inside by the distance yet not by the saved state: in a file changed after the run
            // stopped, a fence the run never had (it would have entered it otherwise).
            let unjudged = changedAfterRun && since[fence] == nil && (distance ?? 1) <= 0
            return FenceCard(
                id: id.text, idJSON: id.json, name: fences.name(fence), inside: since[fence] != nil,
                since: since[fence], distance: distance, visitsThisMonth: visitCount[id] ?? 0, notWatched: unjudged)
        }
        return report
    }

    /// Whether the file at `path` was modified after `time` (ms since 1970).
    static func fileChanged(_ path: String, after time: Int64?) -> Bool {
        guard let time,
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        else { return false }
        return Int64(modified.timeIntervalSince1970 * 1000) > time
    }

    /// A target as shown: a password in its URL is hidden.
    static func redacted(_ target: String) -> String { URLPassword.redacted(target) }
}

/// Text (a dashboard of cards) and JSON for `gpsfence status`.
public enum StatusView {
    public static func json(_ status: StatusReport) -> String {
        var line = JSONLine()
        line.add("state", status.statePath)
        line.add("running", status.running)
        line.add("live", status.live)
        line.add("device", status.receiver.device)
        line.add("detail", status.receiver.detail)
        line.add("fences_file", status.receiver.fencesPath)
        line.add("monitoring_since", time(status.receiver.monitoringSince))
        line.add("updated_at", time(status.receiver.updatedAt))
        line.add("stopped_at", time(status.receiver.stoppedAt))
        if let fixTime = status.receiver.lastFixTime, let lat = status.receiver.lastLat,
            let lon = status.receiver.lastLon
        {
            var fix = JSONLine()
            fix.add("time", time(fixTime))
            fix.add("lat", lat, decimals: JSONPrecision.coordinate)
            fix.add("lon", lon, decimals: JSONPrecision.coordinate)
            fix.add("accuracy", status.receiver.lastAccuracy)
            // A replay's fix is from the capture's past: its age would only say how long ago the
            // replay ran.
            if !status.receiver.replayed { fix.add("age", age(status).map { Double($0) / 1000 }) }
            line.addRaw("last_fix", json: fix.string)
        }
        if status.receiver.replayed { line.add("replayed", true) }
        line.add("odometer_today", (status.odometerToday * 10).rounded() / 10)
        line.add("timezone", status.timezone)
        line.add("ignored_fixes", status.receiver.ignoredFixes)
        if let anchor = status.anchor { line.addRaw("anchor", json: anchor.json) }
        if let alarm = status.alarm { line.addRaw("alarm", json: alarm.statusJSON) }
        if let integrity = status.integrity {
            var object = JSONLine()
            object.add("state", integrity.state.rawValue)
            object.addArray("reasons", strings: integrity.reasons.map(\.rawValue))
            object.add("since", time(integrity.since.millisecondsSinceEpoch))
            line.addRaw("integrity", json: object.string)
        }
        let cards = status.cards.map { card in
            var object = JSONLine()
            object.addRaw("id", json: card.idJSON)
            object.add("name", card.name)
            object.add("inside", card.inside)
            // Only an inside fence has a since (its enter); an outside one leaves it out.
            if let since = time(card.since) { object.add("since", since) }
            object.add("distance", card.distance.map { ($0 * 10).rounded() / 10 })
            object.add("visits_this_month", card.visitsThisMonth)
            if card.notWatched { object.add("watched", false) }
            return object.string
        }
        line.addArray("fences", json: cards)
        line.addArray("inside", json: status.cards.filter(\.inside).map(\.idJSON))
        let targets = status.targets.map { target in
            var object = JSONLine()
            object.add("target", target.name)
            object.add("delivered", target.counters.delivered)
            object.add("pending", target.counters.pending)
            object.add("failed_attempts", target.counters.failedAttempts)
            object.add("last_error", target.counters.lastError)
            object.add("last_error_at", time(target.counters.lastErrorAt))
            if target.previous { object.add("previous", true) }
            return object.string
        }
        line.addArray("outbox", json: targets)
        let servers = status.sync.map { ($0, false) } + status.previousSync.map { ($0, true) }
        let serverObjects = servers.map { cursor, previous in
            var object = JSONLine()
            object.add("target", cursor.target)
            object.add("backlog", cursor.backlog)
            object.add("last_acked_point", time(cursor.ackedTime))
            object.add("last_acked_at", time(cursor.ackedAt))
            object.add("last_error", cursor.lastError)
            object.add("last_error_at", time(cursor.lastErrorAt))
            object.add("pruned_unsent", cursor.unsentPruned)
            if previous { object.add("previous", true) }
            return object.string
        }
        line.addArray("sync", json: serverObjects)
        if let problem = status.fenceProblem { line.add("fence_problem", problem) }
        if let note = status.homeAssistantNote { line.add("home_assistant", note) }
        return line.string
    }

    /// - Parameter format: the zone of the times and the units of the distances shown.
    public static func text(_ status: StatusReport, color: Bool, format: HumanFormat = HumanFormat()) -> String {
        func time(_ milliseconds: Int64?) -> String? { milliseconds.map(format.time) }
        func distanceText(_ metres: Double) -> String { format.units.distance(metres) }
        func paint(_ code: String, _ text: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        let receiver = status.receiver
        var lines: [String] = []
        let state =
            status.running
            ? paint("32", "● monitoring")
            : paint("33", "○ stopped")
                + (receiver.stoppedAt.map { " at \(time($0) ?? "")" } ?? " (no recent sign of a run)")
        lines.append("gpsfence \(state)   \(status.statePath)")
        if let alarm = status.alarm {
            lines.append(alarm.statusLine(color: color, format: format, ackCommand: status.ackCommand))
        }
        // Whether the position can be trusted, at the top: a jammed or spoofed receiver's
        // positions decide no fence.
        if let integrity = status.integrity, integrity.state != .ok {
            let said =
                "  GPS            " + integrity.state.sentence + " since "
                + format.time(integrity.since.millisecondsSinceEpoch)
                + (integrity.reasons.isEmpty ? "" : " (" + integrity.reasons.words + ")")
            lines.append(integrity.state.isUnreliable ? paint("1;31", said) : paint("33", said))
        }
        lines.append(
            "  device         \(receiver.device.map { $0 + (receiver.detail.map { " " + $0 } ?? "") } ?? "none seen")")
        lines.append("  since          \(time(receiver.monitoringSince) ?? "never started")")
        if let fixTime = receiver.lastFixTime, let lat = receiver.lastLat, let lon = receiver.lastLon {
            let accuracy = receiver.lastAccuracy.map { String(format: " ±%.1f m", $0) } ?? ""
            let ago =
                receiver.replayed
                ? (time(receiver.updatedAt).map { " (from a capture, replayed at \($0))" } ?? " (from a capture)")
                : age(status).map { " (" + duration(Double($0) / 1000) + " ago)" } ?? ""
            lines.append("  last fix       \(time(fixTime)!)\(ago)")
            lines.append(
                "                 \(format.units.position(lat: lat, lon: lon))\(accuracy)"
            )
            if !status.running { lines.append("                 the last fix this state file saw") }
        } else {
            lines.append("  last fix       none yet")
        }
        lines.append(
            "  odometer today \(format.units.travelled(status.odometerToday))"
        )
        if let ignored = receiver.ignoredFixes, ignored > 0 {
            lines.append("  ignored fixes  \(ignored): jumps no vehicle makes (receiver glitches)")
        }
        lines += status.anchor?.lines(units: format.units) ?? []
        lines.append("")
        if let problem = status.fenceProblem { lines.append("  fences: \(problem)") }
        if let note = status.homeAssistantNote { lines.append("  home assistant \(note)") }
        for card in status.cards {
            let title = "\(card.name ?? card.id) [\(card.id)]"
            let insideByDistance = (card.distance ?? 1) <= 0
            let place =
                card.inside
                ? paint("1;32", "INSIDE") + (card.since.map { " since \(time($0)!)" } ?? "")
                : card.notWatched
                    ? "not watched yet: the fence file changed after the run stopped"
                    : insideByDistance ? "outside: not entered (the run's margin at the edge)" : "outside"
            let distance =
                card.distance.map {
                    $0 <= 0
                        ? (card.inside ? "" : "the last fix is ") + distanceText(-$0) + " inside the edge"
                        : distanceText($0) + " away"
                } ?? "distance unknown"
            let visits = "\(card.visitsThisMonth) visit\(card.visitsThisMonth == 1 ? "" : "s") this month"
            let width = max(title.count, 44)
            lines.append("  ┌" + String(repeating: "─", count: width + 2) + "┐")
            lines.append("  │ " + title.padding(toLength: width, withPad: " ", startingAt: 0) + " │")
            for row in [place, distance, visits] {
                let visible =
                    color
                    ? row.replacingOccurrences(of: "\u{1B}[1;32m", with: "").replacingOccurrences(
                        of: "\u{1B}[0m", with: "") : row
                lines.append("  │ " + row + String(repeating: " ", count: max(0, width - visible.count)) + " │")
            }
            lines.append("  └" + String(repeating: "─", count: width + 2) + "┘")
        }
        func delivery(_ target: StatusReport.Target) -> String {
            let c = target.counters
            return
                "    \(target.name): \(c.delivered) delivered, \(c.pending) waiting, \(c.failedAttempts) failed attempts"
                + (c.lastError.map { "; last error: \($0)" + (time(c.lastErrorAt).map { " (at \($0))" } ?? "") } ?? "")
        }
        let current = status.targets.filter { !$0.previous }
        if !current.isEmpty {
            lines.append("")
            lines.append("  deliveries")
            lines += current.map(delivery)
        }
        if !status.sync.isEmpty {
            lines.append("")
            lines.append("  track sync")
            for cursor in status.sync {
                let acked =
                    cursor.ackedTime.map { "last acknowledged point \(time($0)!)" } ?? "nothing acknowledged yet"
                lines.append("    \(cursor.target): \(cursor.backlog) points waiting, \(acked)")
                if let error = cursor.lastError {
                    lines.append("      last error: \(error)" + (time(cursor.lastErrorAt).map { " (at \($0))" } ?? ""))
                }
                if cursor.unsentPruned > 0 {
                    lines.append(
                        "      "
                            + paint(
                                "33",
                                "\(cursor.unsentPruned) points were pruned (--keep-days) before this server had them"))
                }
            }
        }
        let previous = status.targets.filter(\.previous)
        if !previous.isEmpty || !status.previousSync.isEmpty {
            lines.append("")
            lines.append("  previous targets (not the last run's; 'gpsfence status --forget TARGET' removes one)")
            lines += previous.map(delivery)
            for cursor in status.previousSync {
                lines.append("    \(cursor.target): \(cursor.backlog) track points not sent to it")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func age(_ status: StatusReport) -> Int64? {
        status.receiver.lastFixWall.map { max(0, status.now - $0) }
    }

    /// A time for JSON: UTC ISO 8601, as machines read it.
    static func time(_ milliseconds: Int64?) -> String? {
        milliseconds.map { UTCTime(millisecondsSinceEpoch: $0).description }
    }

    static func duration(_ seconds: Double) -> String { ReportHTML.duration(seconds) }
}
