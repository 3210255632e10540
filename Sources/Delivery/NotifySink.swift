import Events
import Fences
import Foundation
import NMEA
import Platform
import Presentation

/// `--notify` (docs/running.md): a desktop notification through the freedesktop notification
/// service, by running `notify-send SUMMARY BODY` (arguments, never a shell command line). Where
/// there is no desktop session (no D-Bus session bus and no display) or no `notify-send`, it says
/// so once and carries on. Notifications are sent from a background queue, one at a time, through
/// the spawn layer (`SupervisedRun`): a `notify-send` that hangs (a stuck session bus) is killed
/// after `timeout` seconds and reported, so it can neither stall later notifications for long nor
/// hold `finish()`.
public final class NotifySink: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("NotifySink (the engine's turn)")
    private let program: String?
    private let environment: [String]
    public let timeout: Double
    private let queue = DispatchQueue(label: "gpsfence.notify")
    private let report: @Sendable (Problem) -> Void
    /// Once finishing: when the last notification must be over (monotonic seconds).
    private let finishDeadline = Locked(Double.infinity)
    /// The zone and units of the notification's text.
    private let format: HumanFormat
    /// The id the notification service gave the alarm's notification (`notify-send --print-id`),
    /// until an answer replaces it. Notify queue only.
    private var alarmNotification: Int?
    /// Where `notify-send --print-id` writes that id, kept there until the alarm is answered: see
    /// `idPath`.
    private let idFile: String

    /// - Parameter statePath: the run's state file, when it has one: the alarm's notification of an
    ///   earlier run on it that was never answered (a crash, a restart while it sounded) is the one
    ///   this run's alarm replaces.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double = 5,
        format: HumanFormat = HumanFormat(), statePath: String? = nil, report: @escaping @Sendable (Problem) -> Void
    ) {
        idFile = Self.idPath(statePath: statePath, environment: environment)
        alarmNotification = statePath == nil ? nil : Self.printedID(idFile)
        self.format = format
        self.report = report
        self.timeout = timeout
        self.environment = environment.map { $0.key + "=" + $0.value }
        let hasSession =
            environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["DISPLAY"] != nil
            || environment["WAYLAND_DISPLAY"] != nil
        let found = try? ProgramLookup.resolve("notify-send", path: environment["PATH"]).get()
        switch (hasSession, found) {
        case (true, let path?):
            program = path
        case (false, _):
            program = nil
            report(.alert(.notify(.noDesktopSession)))
        case (true, nil):
            program = nil
            report(.alert(.notify(.notInstalled)))
        }
    }

    public var isActive: Bool { program != nil }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        guard let program else { return }
        let arguments = Self.arguments(for: event.event, fences: fences, format: format)
        let role = Self.role(event.event)
        queue.async { [self] in
            let deadline = { self.finishDeadline.withLock { $0 } }
            guard monotonicSeconds() < deadline() else {
                report(.alert(.notify(.notSentAtStop)))
                return
            }
            var command = SupervisedRun(
                program: program, environment: environment, output: role == .raises ? .file(idFile) : .discarded,
                timeout: timeout)
            command.arguments = Self.answered(arguments, role: role, replacing: alarmNotification)
            if role == .raises { command.arguments.insert("--print-id", at: 0) }
            let failed = { (cause: ProgramRunFailure.Cause) in
                self.report(.alert(.notify(.run(ProgramRunFailure(program: "notify-send", cause: cause)))))
            }
            switch command.run(deadline: deadline, grace: { 0.5 }) {
            case .couldNotStart(let error): failed(.couldNotStart(error))
            case .exited(let status):
                if status.problem != nil { failed(.ended(status)) }
            case .killed: failed(.timedOut(limit: self.timeout))
            }
            switch role {
            case .raises: alarmNotification = Self.printedID(idFile)
            case .silences:
                alarmNotification = nil
                removeFile(idFile)
            case .other: break
            }
        }
    }

    /// What an event does to the alarm's notification.
    enum AlarmNotificationRole: Equatable {
        /// An `alarm`: a critical notification that stays, whose id is kept.
        case raises
        /// An answer, or an end that leaves nothing sounding: it replaces the alarm's notification,
        /// which is then withdrawn.
        case silences
        case other
    }

    static func role(_ event: GeofenceEvent) -> AlarmNotificationRole {
        switch event.payload {
        case .alarm: return .raises
        case .alarmAcknowledged(let alarm, by: _), .alarmCleared(let alarm):
            return alarm.status == .active ? .other : .silences
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
            .integrity:
            return .other
        }
    }

    /// How long the notification that replaces an answered alarm's stays before it is withdrawn.
    static let answeredExpiry = 10_000

    /// `arguments` for an answer that replaces the alarm's notification `id` (the service puts it
    /// where the alarm's was, then withdraws it after `answeredExpiry` ms), and for an alarm said
    /// again while its notification is up (it takes the same place); as they are otherwise.
    static func answered(_ arguments: [String], role: AlarmNotificationRole, replacing id: Int?) -> [String] {
        guard let id else { return arguments }
        switch role {
        case .silences: return ["--replace-id=\(id)", "--expire-time=\(answeredExpiry)"] + arguments
        case .raises: return ["--replace-id=\(id)"] + arguments
        case .other: return arguments
        }
    }

    /// Where the alarm notification's id is kept. With a state file, one file per state file and
    /// session bus in `$XDG_RUNTIME_DIR` (the login session's: it goes with the session whose
    /// notification service gave the id), so that a run started again while the alarm sounds finds
    /// the notification the last one put up, instead of adding a second that no answer withdraws.
    /// Without a state file the alarm ends with the process: a file of its own.
    static func idPath(statePath: String?, environment: [String: String]) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var folder = runtime ?? NSTemporaryDirectory()
        if !folder.hasSuffix("/") { folder += "/" }
        guard let statePath else {
            return folder + "gpsfence-notify-\(currentProcessID())-\(UInt32.random(in: 0...UInt32.max)).id"
        }
        var hash = FNV1a()
        hash.add(URL(fileURLWithPath: statePath).standardizedFileURL.path)
        hash.add(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "")
        return folder + "gpsfence-alarm-notification-\(hash.hex.suffix(12)).id"
    }

    /// The id `notify-send --print-id` wrote, if it wrote one.
    static func printedID(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Waits for the notifications queued so far, at most `timeout` seconds (plus the kill's grace).
    public func finish() {
        finishDeadline.withLock { $0 = min($0, monotonicSeconds() + timeout) }
        queue.sync {}
    }

    /// `gpsfence: enter` / `Low bridge 10'6" (bridge-1) at 05:16:40-05:00`.
    static func arguments(
        for event: GeofenceEvent, fences: FenceSet, format: HumanFormat = HumanFormat()
    ) -> [String] {
        let milliseconds = event.time.millisecondsSinceEpoch
        var body =
            format.calendar.clockText(milliseconds)
            + format.calendar.offsetText(format.calendar.offsetSeconds(at: milliseconds))
        if let fence = event.fence {
            let name = fences.name(fence).map { ConsoleSink.printable($0) + " " } ?? ""
            body = name + "(" + ConsoleSink.plain(fences.ids[fence]) + ") at " + body
        }
        let flags = event.restrictions.map { ", \($0.definition.shout) for this vehicle" }.joined()
        switch event.payload {
        case .approach(let approach):
            body += ", " + format.units.distanceAhead(approach.distance) + " ahead"
            body += flags
        case .enter:
            body += flags
        case .speeding(let speeding):
            body += ", " + format.units.speeding(speeding.speed, limit: speeding.limit)
        case .alarm(let alarm), .alarmAcknowledged(let alarm, by: _), .alarmCleared(let alarm):
            body += ", raised by " + alarm.cause.kind.rawValue
            if let distance = alarm.anchorDistance { body += ", " + ConsoleSink.fromTheAnchor(distance) }
        case .anchorWarning(let warning): body += ", " + ConsoleSink.fromTheAnchor(warning.distance)
        case .integrity(let integrity):
            body += ", " + integrity.state.sentence
            if !integrity.reasons.isEmpty { body += " (" + integrity.reasons.words + ")" }
        case .exit, .dwell, .visit, .cross, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat,
            .registered, .unregistered, .error, .stationary, .moving:
            break
        }
        let urgency = Self.isUrgent(event.kind) || !event.restrictions.isEmpty ? "critical" : "normal"
        // An alarm's notification stays on screen until it is closed (docs/running.md, "Alarms").
        let stays = event.kind.alarmRole == .raised ? ["--expire-time=0"] : []
        return ["--app-name=gpsfence", "--urgency=\(urgency)"] + stays
            + ["--", "gpsfence: \(event.kind.rawValue)", body]
    }

    /// The kinds that ask for action now (a critical notification stays on screen): what is ahead, a
    /// limit broken, a problem. Every kind is named, so a new one is decided here.
    static func isUrgent(_ kind: GeofenceEvent.Kind) -> Bool {
        switch kind {
        case .approach, .speeding, .error, .alarm, .anchorWarning, .integrity: true
        case .enter, .exit, .dwell, .visit, .cross, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat,
            .registered, .unregistered, .stationary, .moving, .alarmAcknowledged, .alarmCleared:
            false
        }
    }
}
