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
        for index in fences ?? [] { hash.add(set.ids[index].json) }
        if let message { hash.add(message) }
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
            let info = set.info(fence)
            out.key("fence")
            out.beginObject()
            out.key("id")
            out.beginRawValue()
            out.append(raw: info.id.json)
            out.key("name")
            out.value(info.name)
            out.key("properties")
            out.beginRawValue()
            appendMinifiedJSON(info.propertiesJSON, to: out)
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
        if let initial {
            out.key("initial")
            out.value(initial)
        }
        if let tooLow {
            out.key("too_low")
            out.value(tooLow)
        }
        if let reason {
            out.key("reason")
            out.value(reason.rawValue)
        }
        if let speed {
            out.key("speed")
            out.value(speed, decimals: JSONPrecision.speed)
        }
        if let limit {
            out.key("limit")
            out.value(limit, decimals: JSONPrecision.speed)
        }
        if let distance {
            out.key("distance")
            out.value(distance, decimals: JSONPrecision.metres)
        }
        if let eta {
            out.key("eta")
            out.value(eta, decimals: JSONPrecision.seconds)
        }
        if let enterTime {
            out.key("enter_time")
            enterTime.writeJSON(to: out)
        }
        if let exitTime {
            out.key("exit_time")
            exitTime.writeJSON(to: out)
        }
        if let duration {
            out.key("duration")
            out.value(duration, decimals: JSONPrecision.seconds)
        }
        if let fences {
            out.key(kind.fenceListKey ?? "fences")
            out.beginArray()
            for index in fences {
                out.beginRawValue()
                out.append(raw: set.ids[index].json)
            }
            out.endArray()
        }
        if let message {
            out.key("message")
            out.value(message)
        }
        writeAlarmFields(to: out)
        out.endObject()
    }

    private func writeAlarmFields(to out: JSONBuffer) {
        if let alarmStatus {
            out.key("state")
            out.value(alarmStatus.rawValue)
        }
        if let cause {
            out.key("cause")
            out.beginObject()
            out.key("id")
            out.value(cause.eventID)
            out.key("type")
            out.value(cause.kind.rawValue)
            out.endObject()
        }
        if let acknowledgedBy {
            out.key("by")
            out.value(acknowledgedBy.rawValue)
        }
        if let anchorDistance {
            out.key("anchor_distance")
            out.value(anchorDistance, decimals: JSONPrecision.metres)
        }
    }

    /// The event as one line of JSON (docs/events.md), as text: what the sinks, the outbox and webhook
    /// bodies carry.
    public func json(fences set: FenceSet) -> String {
        let out = JSONBuffer(capacity: 512)
        writeJSON(fences: set, to: out)
        return out.string
    }
}

/// JSON text without the white space between tokens: properties are carried as the file wrote
/// them, possibly over several lines, and an event must stay on one line (JSON Lines).
func appendMinifiedJSON(_ text: String, to out: JSONBuffer) {
    var inString = false
    var escaped = false
    var afterC2 = false
    for byte in text.utf8 {
        if inString {
            // DEL and C1 inside a string are escaped as the writer escapes them (docs/formats.md).
            if afterC2 {
                afterC2 = false
                if (0x80...0x9F).contains(byte) {
                    out.writeUnicodeEscape(byte)
                    continue
                }
                out.append(byte: 0xC2)
            }
            if byte == 0xC2 {
                afterC2 = true
                continue
            }
            if byte == 0x7F {
                out.writeUnicodeEscape(byte)
                continue
            }
            out.append(byte: byte)
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x22 {
                inString = false
            }
        } else if byte == 0x22 {
            inString = true
            out.append(byte: byte)
        } else if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 {
            out.append(byte: byte)
        }
    }
}
