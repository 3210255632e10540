import ArgumentParser
import Delivery
import Events
import Fences

/// The latched alarm of `run`, and its events on `replay` (docs/running.md, "Alarms").
struct AlarmOptions: ParsableArguments {
    @Flag(
        help:
            "Latched alarm: the anchor's exit, a too_low warning and fix_lost during an anchor watch sound until answered (Enter, 'gpsfence ack', MQTT)."
    )
    var alarm = false

    @Option(help: ArgumentHelp("Event types that raise the alarm as well, e.g. exit,speeding.", valueName: "types"))
    var alarmOn: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How often a sounding alarm rings the bell and repeats --say. (default: 3 s)", valueName: "duration"),
        transform: Seconds.read)
    var alarmRepeat = Seconds(3)

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Run --on-escalate once when an alarm has sounded this long without an answer.", valueName: "duration"),
        transform: Seconds.read)
    var alarmEscalate: Seconds?

    @Option(
        help: ArgumentHelp(
            "The program --alarm-escalate runs, without a shell: the alarm event as JSON on stdin, GPSFENCE_* in its environment.",
            valueName: "program"))
    var onEscalate: String?

    func validate() throws {
        if (alarmEscalate == nil) != (onEscalate == nil) {
            throw ValidationError(
                .companionMissing(
                    alarmEscalate == nil
                        ? .option("--on-escalate", goesWith: "--alarm-escalate DURATION")
                        : .option("--alarm-escalate", goesWith: "--on-escalate PROGRAM")))
        }
        if let alarmEscalate, let problem = Limits.checkSeconds("--alarm-escalate", alarmEscalate.value) {
            throw ValidationError(.outOfRange(problem))
        }
        if let alarmOn {
            let types: Set<GeofenceEvent.Kind>
            switch BellSink.types(alarmOn) {
            case .success(let named): types = named
            case .failure(let error):
                throw ValidationError(.notAChoice(option: "--alarm-on", value: error.name, choices: Self.selectable))
            }
            if let own = types.first(where: { !AlarmPolicy.isSelectable($0) }) {
                throw ValidationError(.alarmOwnEvent(kind: own.rawValue))
            }
        }
        if let problem = Limits.alarmRepeat(alarmRepeat.value) { throw ValidationError(.outOfRange(problem)) }
    }

    private static var selectable: [String] {
        GeofenceEvent.Kind.allCases.filter(AlarmPolicy.isSelectable).map(\.rawValue)
    }

    /// Whether alarms sound on this run (the bell rings for them even without --bell).
    var sounds: Bool { alarm || alarmOn != nil }

    /// The escalation, when asked for.
    func escalation(timeout: Double, report: @escaping @Sendable (Problem) -> Void) throws -> [EventSink] {
        guard let alarmEscalate, let onEscalate else { return [] }
        return [try EscalationSink(program: onEscalate, after: alarmEscalate.value, timeout: timeout, report: report)]
    }

    var policy: AlarmPolicy {
        AlarmPolicy(builtIn: alarm, types: alarmOn.flatMap { try? BellSink.types($0).get() } ?? [])
    }
}
