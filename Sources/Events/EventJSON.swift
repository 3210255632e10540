import Fences
import JSONOutput
import NMEA

extension GeofenceEvent {
    /// The event id: 16 hex digits of a 64-bit FNV-1a hash of the type, the time and the fence id
    /// (or the ids an event carries). Unique within a run, because one fix gives each fence at most
    /// one event of a type; stable across runs and restarts, because it depends only on the input,
    /// so a webhook receiver can drop the duplicates of at-least-once delivery.
    public func id(fences set: FenceSet) -> String {
        var hash = FNV1a()
        hash.add(kind.rawValue)
        hash.add(String(time.millisecondsSinceEpoch))
        if let fence { hash.add(set.ids[fence].json) }
        for index in listedFences ?? [] { hash.add(set.ids[index].json) }
        func addSaid(_ message: String, _ wallTime: UTCTime?) {
            hash.add(message)
            // Two problems said at the same point of a replay's clock are still two events.
            if let wallTime { hash.add(String(wallTime.millisecondsSinceEpoch)) }
        }
        switch payload {
        case .deviceLost(let message, let wallTime), .deviceConnected(let message, let wallTime):
            addSaid(message, wallTime)
        case .error(let problem, let wallTime):
            addSaid(problem.text, wallTime)
        case .registered(_, let message): if let message { hash.add(message) }
        case .enter, .exit, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .heartbeat,
            .unregistered, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
            .alarmCleared, .integrity:
            break
        }
        return hash.hex
    }

    /// The event as one line of JSON (docs/events.md, docs/formats.md), written into `out` (no line feed).
    public func writeJSON(fences set: FenceSet, to out: JSONBuffer) {
        out.beginObject()
        out.key("id")
        out.value(id(fences: set))
        out.key("type")
        out.value(kind.rawValue)
        out.key("time")
        time.writeJSON(to: out)
        if let fence {
            out.key("fence")
            out.beginObject()
            out.key("id")
            out.beginRawValue()
            out.append(raw: set.ids[fence].json)
            out.key("name")
            out.value(set.name(fence))
            out.key("properties")
            out.beginRawValue()
            set.appendProperties(of: fence, to: out)
            out.endObject()
        }
        if let location {
            out.key("location")
            out.beginObject()
            out.key("lat")
            out.value(location.latitude, decimals: JSONPrecision.coordinate)
            out.key("lon")
            out.value(location.longitude, decimals: JSONPrecision.coordinate)
            out.key("accuracy")
            out.value(location.accuracy, decimals: JSONPrecision.metres)
            out.key("speed")
            out.value(location.speed, decimals: JSONPrecision.speed)
            out.key("track")
            out.value(location.track, decimals: JSONPrecision.degrees)
            out.endObject()
        }
        writePayload(fences: set, to: out)
        out.endObject()
    }

    /// The kind's own fields, in the order every kind shares (docs/formats.md).
    private func writePayload(fences set: FenceSet, to out: JSONBuffer) {
        switch payload {
        case .enter(let enter):
            out.key("initial")
            out.value(enter.initial)
            writeRestrictions(enter.restrictions, to: out)
            writeReason(enter.reason, to: out)
        case .exit(let exit):
            writeReason(exit.reason, to: out)
        case .dwell(let dwell):
            out.key("enter_time")
            dwell.enterTime.writeJSON(to: out)
            writeDuration(dwell.duration, to: out)
        case .visit(let visit):
            out.key("enter_time")
            visit.enterTime.writeJSON(to: out)
            out.key("exit_time")
            visit.exitTime.writeJSON(to: out)
            writeDuration(visit.duration, to: out)
        case .approach(let approach):
            writeRestrictions(approach.restrictions, to: out)
            out.key("distance")
            out.value(approach.distance, decimals: JSONPrecision.metres)
            out.key("eta")
            out.value(approach.eta, decimals: JSONPrecision.seconds)
        case .speeding(let speeding):
            out.key("speed")
            out.value(speeding.speed, decimals: JSONPrecision.speed)
            out.key("limit")
            out.value(speeding.limit, decimals: JSONPrecision.speed)
        case .heartbeat(let fences), .unregistered(let fences):
            writeList(fences, fences: set, to: out)
        case .registered(let fences, let message):
            writeList(fences, fences: set, to: out)
            if let message { writeMessage(message, to: out) }
        case .deviceLost(let message, let wallTime), .deviceConnected(let message, let wallTime):
            writeSaid(message, wallTime, to: out)
        case .error(let problem, let wallTime):
            writeSaid(problem.text, wallTime, to: out)
        case .anchorWarning(let warning):
            writeAnchorDistance(warning.distance, to: out)
        case .alarm(let alarm), .alarmCleared(let alarm):
            writeAlarm(alarm, by: nil, to: out)
        case .alarmAcknowledged(let alarm, let who):
            writeAlarm(alarm, by: who, to: out)
        case .integrity(let integrity):
            out.key("state")
            out.value(integrity.state.rawValue)
            out.key("reasons")
            out.beginArray()
            for reason in integrity.reasons { out.value(reason.rawValue) }
            out.endArray()
            out.key("since")
            integrity.since.writeJSON(to: out)
        case .cross, .fixLost, .fixAcquired, .stationary, .moving:
            break
        }
    }

    private func writeList(_ fences: [Int], fences set: FenceSet, to out: JSONBuffer) {
        out.key(kind.fenceListKey ?? "fences")
        out.beginArray()
        for index in fences {
            out.beginRawValue()
            out.append(raw: set.ids[index].json)
        }
        out.endArray()
    }

    private func writeSaid(_ message: String, _ wallTime: UTCTime?, to out: JSONBuffer) {
        writeMessage(message, to: out)
        if let wallTime {
            out.key("wall_time")
            wallTime.writeJSON(to: out)
        }
    }

    private func writeMessage(_ message: String, to out: JSONBuffer) {
        out.key("message")
        out.value(message)
    }

    /// Each broken restriction's flag (`"too_low": true`), in the order of the restrictions.
    private func writeRestrictions(_ restrictions: BrokenRestrictions, to out: JSONBuffer) {
        for restriction in restrictions {
            out.key(restriction.definition.flag)
            out.value(true)
        }
    }

    private func writeReason(_ reason: TransitionReason?, to out: JSONBuffer) {
        guard let reason else { return }
        out.key("reason")
        out.value(reason.rawValue)
    }

    private func writeDuration(_ duration: Double, to out: JSONBuffer) {
        out.key("duration")
        out.value(duration, decimals: JSONPrecision.seconds)
    }

    private func writeAnchorDistance(_ distance: Double, to out: JSONBuffer) {
        out.key("anchor_distance")
        out.value(distance, decimals: JSONPrecision.metres)
    }

    private func writeAlarm(_ alarm: Alarm, by who: AlarmAcknowledger?, to out: JSONBuffer) {
        out.key("state")
        out.value(alarm.status.rawValue)
        out.key("cause")
        out.beginObject()
        out.key("id")
        out.value(alarm.cause.eventID)
        out.key("type")
        out.value(alarm.cause.kind.rawValue)
        out.endObject()
        if let who {
            out.key("by")
            out.value(who.rawValue)
        }
        if let distance = alarm.anchorDistance { writeAnchorDistance(distance, to: out) }
    }

    /// The event as one line of JSON (docs/events.md), as text: what the sinks, the outbox and webhook
    /// bodies carry.
    public func json(fences set: FenceSet) -> String {
        // Room for a listed fence's id up front: `registered` of a million fences would otherwise
        // be copied as it doubles, up to twice its 18 MB.
        let out = JSONBuffer(capacity: 512 + (listedFences?.count ?? 0) * 32)
        writeJSON(fences: set, to: out)
        return out.string
    }
}
