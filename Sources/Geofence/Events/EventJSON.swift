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

    /// The event as one line of JSON (SPEC §6).
    public func json(fences set: FenceSet) -> String {
        var line = JSONLine()
        line.add("id", id(fences: set))
        line.add("type", kind.rawValue)
        line.add("time", time.description)
        if let fence {
            let info = set.info(fence)
            var object = JSONLine()
            object.addRaw("id", json: info.id.json)
            object.add("name", info.name)
            object.addRaw("properties", json: minifiedJSON(info.propertiesJSON))
            line.addRaw("fence", json: object.string)
        }
        if let location {
            var object = JSONLine()
            object.add("lat", location.latitude)
            object.add("lon", location.longitude)
            object.add("accuracy", location.accuracy)
            object.add("speed", location.speed)
            object.add("track", location.track)
            line.addRaw("location", json: object.string)
        }
        if let initial { line.add("initial", initial) }
        if let distance { line.add("distance", distance) }
        if let eta { line.add("eta", eta) }
        if let enterTime { line.add("enter_time", enterTime.description) }
        if let exitTime { line.add("exit_time", exitTime.description) }
        if let duration { line.add("duration", duration) }
        if let fences {
            let key = kind == .heartbeat ? "inside" : "fences"
            line.addRaw(key, json: "[" + fences.map { set.ids[$0].json }.joined(separator: ",") + "]")
        }
        if let message { line.add("message", message) }
        return line.string
    }
}

/// JSON text without the white space between tokens: properties are carried as the file wrote
/// them, possibly over several lines, and an event must stay on one line (JSON Lines).
func minifiedJSON(_ text: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count)
    var inString = false
    var escaped = false
    for byte in text.utf8 {
        if inString {
            out.append(byte)
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x22 {
                inString = false
            }
        } else if byte == 0x22 {
            inString = true
            out.append(byte)
        } else if byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09 {
            out.append(byte)
        }
    }
    return String(decoding: out, as: UTF8.self)
}
