import Fences
import JSONInput
import NMEA

/// The fields of an event line as the decoder meets them, in any order, before it knows which
/// of them the line's kind has; `payload` then takes exactly the kind's own.
struct EventFields {
    private var initial: Bool?
    private var distance: Double?
    private var eta: Double?
    private var duration: Double?
    private var enterTime: UTCTime?
    private var exitTime: UTCTime?
    private var message: String?
    private var wallTime: UTCTime?
    private var reason: TransitionReason?
    private var speed: Double?
    private var limit: Double?
    private var restrictions = BrokenRestrictions()
    /// `state`: an alarm's status or the integrity state, by the kind.
    private var state: String?
    private var reasons = IntegrityReasons()
    private var since: UTCTime?
    private var cause: AlarmCause?
    private var acknowledgedBy: AlarmAcknowledger?
    private var anchorDistance: Double?

    /// Reads the value of `key`, or skips it when no kind has such a field.
    mutating func read(_ key: String, from scanner: inout JSONScanner) throws(JSONSyntaxError) {
        switch key {
        case "initial": initial = try scanner.bool()
        // A number the writer printed as `null` (not finite) is still there.
        case "distance": distance = try scanner.optionalNumber() ?? .nan
        case "eta": eta = try scanner.optionalNumber() ?? .nan
        case "duration": duration = try scanner.optionalNumber() ?? .nan
        case "enter_time": enterTime = try scanner.optionalString().flatMap(UTCTime.init(iso:))
        case "exit_time": exitTime = try scanner.optionalString().flatMap(UTCTime.init(iso:))
        case "message": message = try scanner.optionalString()
        case "wall_time": wallTime = try scanner.optionalString().flatMap(UTCTime.init(iso:))
        case "reason": reason = try scanner.optionalString().flatMap(TransitionReason.init(rawValue:))
        case "speed": speed = try scanner.optionalNumber() ?? .nan
        case "limit": limit = try scanner.optionalNumber() ?? .nan
        case "state": state = try scanner.optionalString()
        case "reasons": try readReasons(&scanner)
        case "since": since = try scanner.optionalString().flatMap(UTCTime.init(iso:))
        case "cause": cause = try EventRecord.decodeCause(&scanner)
        case "by": acknowledgedBy = try scanner.optionalString().flatMap(AlarmAcknowledger.init(rawValue:))
        case "anchor_distance": anchorDistance = try scanner.optionalNumber()
        default:
            // A restriction's flag (`too_low`); `false` is read as not flagged.
            if let restriction = VehicleRestrictionKind.allCases.first(where: { $0.definition.flag == key }) {
                if try scanner.bool() { restrictions.insert(restriction) }
            } else {
                try scanner.skipValue()
            }
        }
    }

    /// The payload of a `kind` event about fence `fence` and listing `listed` (indices into the
    /// record's fences); nil when the line lacks a field the kind has.
    func payload(_ kind: GeofenceEvent.Kind, fence: Int?, listed: [Int]?) -> GeofenceEvent.Payload? {
        switch kind {
        case .enter:
            guard let fence, let initial else { return nil }
            return .enter(
                GeofenceEvent.Enter(fence: fence, initial: initial, restrictions: restrictions, reason: reason))
        case .exit:
            guard let fence else { return nil }
            return .exit(GeofenceEvent.Exit(fence: fence, reason: reason))
        case .dwell:
            guard let fence, let enterTime, let duration else { return nil }
            return .dwell(GeofenceEvent.Dwell(fence: fence, enterTime: enterTime, duration: duration))
        case .visit:
            guard let fence, let enterTime, let exitTime, let duration else { return nil }
            return .visit(
                GeofenceEvent.Visit(fence: fence, enterTime: enterTime, exitTime: exitTime, duration: duration))
        case .cross:
            guard let fence else { return nil }
            return .cross(fence: fence)
        case .approach:
            guard let fence, let distance, let eta else { return nil }
            return .approach(
                GeofenceEvent.Approach(fence: fence, distance: distance, eta: eta, restrictions: restrictions))
        case .speeding:
            guard let fence, let speed, let limit else { return nil }
            return .speeding(GeofenceEvent.Speeding(fence: fence, speed: speed, limit: limit))
        case .fixLost: return .fixLost
        case .fixAcquired: return .fixAcquired
        case .deviceLost: return message.map { .deviceLost(message: $0, wallTime: wallTime) }
        case .deviceConnected: return message.map { .deviceConnected(message: $0, wallTime: wallTime) }
        case .error: return message.map { .error(problem: .readBack($0), wallTime: wallTime) }
        case .heartbeat: return listed.map { .heartbeat(inside: $0) }
        case .registered: return listed.map { .registered(fences: $0, message: message) }
        case .unregistered: return listed.map { .unregistered(fences: $0) }
        case .stationary: return .stationary
        case .moving: return .moving
        case .anchorWarning:
            guard let fence, let anchorDistance else { return nil }
            return .anchorWarning(GeofenceEvent.AnchorWarning(anchor: fence, distance: anchorDistance))
        case .alarm: return alarm(fence).map { .alarm($0) }
        case .alarmCleared: return alarm(fence).map { .alarmCleared($0) }
        case .alarmAcknowledged:
            guard let alarm = alarm(fence), let acknowledgedBy else { return nil }
            return .alarmAcknowledged(alarm, by: acknowledgedBy)
        case .integrity:
            guard let state = state.flatMap(IntegrityState.init(rawValue:)), let since else { return nil }
            return .integrity(GeofenceEvent.Integrity(state: state, reasons: reasons, since: since))
        }
    }

    /// An integrity event's `reasons`; names this version does not know are skipped.
    private mutating func readReasons(_ scanner: inout JSONScanner) throws(JSONSyntaxError) {
        var read = IntegrityReasons()
        try scanner.elements { (element: inout JSONScanner) throws(JSONSyntaxError) in
            if let reason = try element.optionalString().flatMap(IntegrityReason.init(rawValue:)) {
                read.insert(reason)
            }
        }
        reasons = read
    }

    private func alarm(_ fence: Int?) -> GeofenceEvent.Alarm? {
        guard let cause, let status = state.flatMap(AlarmStatus.init(rawValue:)) else { return nil }
        return GeofenceEvent.Alarm(fence: fence, cause: cause, status: status, anchorDistance: anchorDistance)
    }
}
