import Events
import Fences
import JSONOutput
import NMEA
import Presentation

/// docs/running.md console output: one human line per event (coloured on a terminal), or JSON Lines with
/// `--json`, on standard output.
public final class ConsoleSink: EventSink {
    /// Immediate: its latency goal is the whole point (docs/running.md, "Power cuts").
    public var waitsForStorage: Bool { false }

    public enum Style: Sendable {
        case human(color: Bool)
        case json
    }

    private let output: OutputWriter
    private let style: Style
    private let flushesEveryEvent: Bool
    private let format: HumanFormat
    private let ackCommand: String

    /// - Parameter flushesEveryEvent: a live run writes each event at once (an alert that waits in
    ///   a buffer is late); a replay lets lines collect and writes them in large blocks.
    /// - Parameter format: the zone and units of human lines; JSON lines keep UTC and SI.
    /// - Parameter ackCommand: the shell command an alarm's line names to answer it (`AckCommand`).
    public init(
        output: OutputWriter = .standardOutput, style: Style, flushesEveryEvent: Bool = false,
        format: HumanFormat = HumanFormat(), ackCommand: String = AckCommand.text(statePath: nil)
    ) {
        self.ackCommand = ackCommand
        self.output = output
        self.style = style
        self.flushesEveryEvent = flushesEveryEvent
        self.format = format
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        switch style {
        case .json: output.write(line: event.json)
        case .human(let color):
            output.write(
                line: Self.humanLine(
                    event.event, fences: fences, color: color, format: format, ackCommand: ackCommand))
        }
        if flushesEveryEvent { output.flush() }
    }

    public func finish() { output.flush() }

    /// `2026-02-03 05:15:36-05:00  approach  Low bridge 10'6" [bridge-1]  1588 m ahead, eta 1 min 4 s`
    public static func humanLine(
        _ event: GeofenceEvent, fences: FenceSet, color: Bool, format: HumanFormat = HumanFormat(),
        ackCommand: String = AckCommand.text(statePath: nil)
    ) -> String {
        let time = format.time(event.time)
        let units = format.units
        var kind = event.kind.rawValue
        // As wide as the longest kind (`device_connected`), so the columns line up.
        kind += String(repeating: " ", count: max(0, 16 - kind.count))
        // A vehicle too tall (or too heavy...) for the fence ahead: red whatever the kind
        // (docs/fences.md, "Rules").
        let restrictions = event.restrictions
        if color {
            kind = (restrictions.isEmpty ? Self.color(for: event.kind) : Self.restrictionColor) + kind + "\u{1B}[0m"
        }
        var parts = [time, kind]
        if let fence = event.fence {
            let name = fences.name(fence).map { Self.printable($0) + " " } ?? ""
            parts.append("\(name)[\(Self.plain(fences.ids[fence]))]")
        }
        var details: [String] = []
        let rules = event.fenceRules(in: fences, localZone: format.calendar.zone)
        for restriction in restrictions {
            let definition = restriction.definition
            let limit = rules.flatMap { definition.limitText($0, units: units) }
            let flag = definition.shout + (limit.map { ": " + $0 } ?? "")
            details.append(color ? Self.restrictionColor + flag + "\u{1B}[0m" : flag)
        }
        let expired = "the fence expired"
        switch event.payload {
        case .enter(let enter):
            if enter.initial { details.append(Self.alreadyInside(enter.reason)) }
            if enter.reason == .expired { details.append(expired) }
        case .exit(let exit):
            if exit.reason == .expired { details.append(expired) }
        case .speeding(let speeding):
            details.append(units.speeding(speeding.speed, limit: speeding.limit))
        case .approach(let approach):
            details.append(units.distanceAhead(approach.distance) + " ahead")
            details.append("eta " + Self.duration(approach.eta))
        case .dwell(let dwell): details.append("inside for " + Self.duration(dwell.duration))
        case .visit(let visit): details.append("stayed " + Self.duration(visit.duration))
        case .registered(let list, let message):
            details.append(Self.watched(list, of: fences))
            if let message { details.append(Self.printable(message)) }
        case .heartbeat(let list), .unregistered(let list):
            let shown = list.prefix(5).map { Self.plain(fences.ids[$0]) }.joined(separator: ", ")
            // `inside` for a heartbeat; a list of fences otherwise, "1 fence" in the singular.
            let key = event.kind.fenceListKey ?? "fences"
            let label = key == "fences" && list.count == 1 ? "fence" : key
            details.append(
                "\(list.count) \(label)" + (list.isEmpty ? "" : ": " + shown + (list.count > 5 ? ", ..." : "")))
        case .anchorWarning(let warning): details.append(Self.fromTheAnchor(warning.distance))
        case .alarm(let alarm), .alarmCleared(let alarm):
            details += Self.alarmDetails(alarm, by: nil, ackCommand: ackCommand)
        case .alarmAcknowledged(let alarm, let who):
            details += Self.alarmDetails(alarm, by: who, ackCommand: ackCommand)
        case .deviceLost(let message, _), .deviceConnected(let message, _):
            details.append(Self.printable(message))
        case .error(let problem, _):
            details.append(Self.printable(problem.text))
        case .integrity(let integrity):
            details.append(integrity.state.sentence)
            if !integrity.reasons.isEmpty { details.append(integrity.reasons.words) }
        case .cross, .fixLost, .fixAcquired, .stationary, .moving:
            break
        }
        if let location = event.location, event.kind.isAboutThePosition {
            details.append("at " + units.position(lat: location.latitude, lon: location.longitude))
        }
        if !details.isEmpty { parts.append(details.joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }

    /// A `registered` line says how many fences are watched now; after a change of the set, also
    /// which arrived (possibly none: a restored file whose fences were all known).
    static func watched(_ arrivals: [Int], of fences: FenceSet) -> String {
        let shown = arrivals.prefix(5).map { plain(fences.ids[$0]) }.joined(separator: ", ")
        let more = arrivals.count > 5 ? ", ..." : ""
        let watched = "\(fences.count) fence\(fences.count == 1 ? "" : "s") watched"
        if arrivals.count == fences.count { return watched + (arrivals.isEmpty ? "" : ": " + shown + more) }
        return watched + ", \(arrivals.count) new or changed" + (arrivals.isEmpty ? "" : ": " + shown + more)
    }

    /// An id as people read it: `bridge-1`, `7`.
    static func plain(_ id: FenceID) -> String {
        printable(id.text)
    }

    static func color(for kind: GeofenceEvent.Kind) -> String {
        switch kind {
        case .enter: "\u{1B}[32m"
        case .exit: "\u{1B}[33m"
        case .approach: "\u{1B}[1;31m"
        case .speeding: "\u{1B}[1;33m"
        case .cross: "\u{1B}[35m"
        case .dwell, .visit: "\u{1B}[36m"
        case .fixLost, .deviceLost, .error: "\u{1B}[31m"
        case .alarm: "\u{1B}[1;97;41m"
        case .anchorWarning: "\u{1B}[1;33m"
        case .alarmAcknowledged, .alarmCleared: "\u{1B}[1;35m"
        case .integrity: "\u{1B}[1;31m"
        case .fixAcquired, .deviceConnected, .heartbeat, .registered, .unregistered, .stationary, .moving:
            "\u{1B}[2m"
        }
    }

    /// What a duration means, for the kinds whose duration is shown: how long a visit lasted, how
    /// long the receiver has been inside at a dwell.

    /// Why an `enter` found the receiver inside already: the start of the run (or of the fence's
    /// window), or a new fence set that brought the fence.
    static func alreadyInside(_ reason: TransitionReason?) -> String {
        switch reason {
        case nil: "already inside at start"
        case .added: "already inside when the fence was added"
        case .changed: "already inside the fence's new shape"
        case .removed, .expired: "already inside"
        }
    }

    /// Bold red on red-and-white: `too_low` stands out from an ordinary approach.
    static let restrictionColor = "\u{1B}[1;97;41m"

    /// `64 s`, `1 min 4 s`, `2 h 5 min`: how every human line says a duration (events, visits).
    public static func duration(_ seconds: Double) -> String { HumanText.duration(seconds) }

    static func coordinate(_ value: Double) -> String { formatted(value, decimals: JSONPrecision.coordinate) }

    /// Fence names come from files: control characters (a terminal escape in a name, C1 controls
    /// too) are shown as `?` so that a fence file cannot drive the user's terminal (`HumanText`).
    static func printable(_ text: String) -> String { HumanText.printable(text) }
}
