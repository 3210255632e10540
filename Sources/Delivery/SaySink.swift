import Events
import Fences
import Foundation
import NMEA
import Platform
import Presentation
import Synchronization

/// `--say` (docs/running.md, "Spoken alerts"): each event spoken through `espeak-ng` (or a given
/// program), for a Pi under systemd with a speaker and no screen. The sentence is built from the
/// event's typed fields ("Low bridge, in 1.6 kilometres") and handed to the program as one
/// argument, never through a shell: a fence name is data. Utterances are spoken one at a time from
/// a background queue, so speech never overlaps and never stalls the engine; a queue longer than
/// `maximumQueued` drops the new utterance and says so, and each utterance is killed after
/// `timeout` seconds.
public final class SaySink: EventSink, @unchecked Sendable {
    /// `EventSink`'s calls come in the engine's turn, one thread at a time.
    private let engineTurn = OneThreadAtATime("SaySink (the engine's turn)")
    /// How the program is run.
    public enum Voice: Sendable {
        /// `espeak-ng [-w FILE] -- TEXT`.
        case espeak
        /// `PROGRAM TEXT`: any program that speaks its one argument (piper, festival, a wrapper).
        case program(String)
    }

    private let program: String?
    private let voice: Voice
    /// Where each utterance goes as a WAV file (`NNNN-KIND.wav`) instead of the speaker.
    private let wavDirectory: String?
    private let environment: [String]
    public let timeout: Double
    public static let maximumQueued = 16
    private let queue = DispatchQueue(label: "gpsfence.say")
    private let queued = Atomic<Int>(0)
    private let spoken = Atomic<Int>(0)
    private let report: @Sendable (Problem) -> Void
    private let finishDeadline = Locked(Double.infinity)
    /// The units distances, speeds and clearances are spoken in (`--units`).
    private let units: MeasurementUnits
    /// The user's zone, which a fence's conditional limits are read in without its own `timezone`.
    private let localZone: ZoneOffsets
    private let repeater: AlarmRepeater

    /// - Parameter alarmRepeat: seconds between the sentences of an alarm that sounds.
    public init(
        voice: Voice = .espeak, wavDirectory: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Double = 30,
        units: MeasurementUnits = .metric, localZone: ZoneOffsets = .utc, alarmRepeat: Double = 3,
        report: @escaping @Sendable (Problem) -> Void
    ) {
        self.units = units
        self.localZone = localZone
        repeater = AlarmRepeater(interval: alarmRepeat)
        self.voice = voice
        self.wavDirectory = wavDirectory
        self.timeout = timeout
        self.report = report
        var environment = environment
        if let wavDirectory { environment["GPSFENCE_SAY_WAV_DIR"] = wavDirectory }
        self.environment = environment.map { $0.key + "=" + $0.value }
        let name: String
        switch voice {
        case .espeak: name = "espeak-ng"
        case .program(let given): name = given
        }
        switch ProgramLookup.resolve(name, path: environment["PATH"]) {
        case .success(let path): program = path
        case .failure:
            program = nil
            report(.alert(.say(.notInstalled(program: name))))
        }
    }

    public var isActive: Bool { program != nil }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        let claim = engineTurn.enter()
        defer { engineTurn.leave(claim) }
        guard program != nil,
            let text = Self.sentence(for: event.event, fences: fences, units: units, localZone: localZone)
        else {
            if event.event.kind.alarmRole != .none { repeater.follow(event.event) {} }
            return
        }
        let kind = event.event.kind
        guard kind.alarmRole != .none else { return speak(text, kind: kind) }
        // While the alarm sounds its sentence comes again, each time the last one has been said.
        repeater.follow(event.event) { [self] in
            if queued.load(ordering: .relaxed) == 0 { speak(text, kind: kind) }
        }
        if kind.alarmRole != .raised { speak(text, kind: kind) }
    }

    private func speak(_ text: String, kind: GeofenceEvent.Kind) {
        guard let program else { return }
        guard queued.add(1, ordering: .relaxed).newValue <= Self.maximumQueued else {
            queued.subtract(1, ordering: .relaxed)
            report(.alert(.say(.dropped(waiting: Self.maximumQueued, utterance: text))))
            return
        }
        let number = spoken.add(1, ordering: .relaxed).newValue
        var command = SupervisedRun(program: program, environment: environment, output: .discarded, timeout: timeout)
        command.arguments = arguments(text: text, number: number, kind: kind)
        let child = command
        queue.async { [self] in
            defer { queued.subtract(1, ordering: .relaxed) }
            let deadline = { self.finishDeadline.withLock { $0 } }
            guard monotonicSeconds() < deadline() else {
                report(.alert(.say(.notSpokenAtStop(utterance: text))))
                return
            }
            let name = (program as NSString).lastPathComponent
            let failed = { (cause: ProgramRunFailure.Cause) in
                self.report(.alert(.say(.run(ProgramRunFailure(program: name, cause: cause)))))
            }
            switch child.run(deadline: deadline, grace: { 0.5 }) {
            case .couldNotStart(let error): failed(.couldNotStart(error))
            case .exited(let status):
                if status.problem != nil { failed(.ended(status)) }
            case .killed: failed(.timedOut(limit: self.timeout))
            }
        }
    }

    /// Waits for the utterances queued so far, at most `timeout` seconds (plus the kill's grace).
    public func finish() {
        repeater.stop()
        finishDeadline.withLock { $0 = min($0, monotonicSeconds() + timeout) }
        queue.sync {}
    }

    func arguments(text: String, number: Int, kind: GeofenceEvent.Kind) -> [String] {
        switch voice {
        case .espeak:
            // `--` ends the options: a name that starts with '-' is spoken, not read as an option.
            let file = wavDirectory.map { ["-w", Self.wavPath($0, number: number, kind: kind)] } ?? []
            return file + ["--", text]
        case .program:
            return [text]
        }
    }

    /// `DIR/0001-enter.wav`: in the order spoken.
    public static func wavPath(_ directory: String, number: Int, kind: GeofenceEvent.Kind) -> String {
        let digits = String(number)
        return directory + "/" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-"
            + kind.rawValue + ".wav"
    }

    /// What is said for an event, or nil for the kinds that are not spoken (bookkeeping: registered,
    /// heartbeat; and what would chatter: visit, stationary, moving).
    public static func sentence(
        for event: GeofenceEvent, fences: FenceSet, units: MeasurementUnits = .metric, localZone: ZoneOffsets = .utc
    ) -> String? {
        let name = event.fence.map { fence in
            fences.name(fence).map(HumanText.printable) ?? "fence " + HumanText.printable(fences.ids[fence].text)
        }
        // A vehicle too tall for what is ahead hears that first, and the clearance after the name
        // (docs/fences.md, "Rules").
        let restrictions = event.restrictions
        let warning = restrictions.map { $0.definition.spokenWarning + " " }.joined()
        let rules = event.fenceRules(in: fences, localZone: localZone)
        let limits = restrictions.compactMap { restriction in
            rules.flatMap { restriction.definition.spokenLimit($0, units: units) }
        }
        let place = name.map { ([$0] + limits).joined(separator: ", ") }
        switch event.payload {
        case .enter: return place.map { warning + "Entering \($0)" }
        case .exit: return place.map { "Leaving \($0)" }
        case .cross: return place.map { "Crossing \($0)" }
        case .approach(let approach):
            guard let place else { return nil }
            return warning + "\(place), in \(units.spokenDistance(approach.distance))"
        case .speeding(let speeding):
            guard let place else { return nil }
            return "Too fast in \(place): \(units.spokenSpeed(speeding.speed, rounded: .up)), the limit is "
                + units.spokenSpeed(speeding.limit, rounded: .down)
        case .dwell(let dwell):
            guard let place else { return nil }
            return "Still in \(place), for \(spokenDuration(dwell.duration))"
        case .fixLost: return "GPS fix lost"
        case .fixAcquired: return nil
        case .deviceLost: return "GPS receiver lost"
        case .anchorWarning(let warning):
            return "Anchor warning: \(units.spokenDistance(warning.distance)) from the anchor"
        case .alarm(let alarm): return "Alarm! " + alarmCause(alarm, place: place, units: units)
        case .alarmAcknowledged: return "Alarm acknowledged"
        case .alarmCleared: return nil
        case .integrity(let integrity):
            switch integrity.state {
            case .jammed, .spoofed, .ok: return integrity.state.sentence
            case .degraded: return nil
            }
        case .deviceConnected, .registered, .unregistered, .heartbeat, .visit, .stationary, .moving, .error:
            return nil
        }
    }

    /// What raised an alarm, as said after "Alarm!".
    static func alarmCause(_ alarm: GeofenceEvent.Alarm, place: String?, units: MeasurementUnits) -> String {
        if let distance = alarm.anchorDistance {
            return "The anchor drags: \(units.spokenDistance(distance)) from the anchor"
        }
        if alarm.cause.kind == .fixLost { return "No GPS position" }
        if alarm.cause.kind == .integrity { return "GPS position unreliable" }
        if let place { return "\(alarm.cause.kind.rawValue) \(place)" }
        return alarm.cause.kind.rawValue
    }

    /// `5 minutes`, `1 hour 5 minutes`, `40 seconds`.
    static func spokenDuration(_ seconds: Double) -> String {
        let total = Limits.int(seconds.rounded())
        func unit(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        if total < 60 { return unit(total, "second") }
        if total < 3600 { return unit(total / 60, "minute") }
        let minutes = total % 3600 / 60
        return unit(total / 3600, "hour") + (minutes == 0 ? "" : " " + unit(minutes, "minute"))
    }
}
