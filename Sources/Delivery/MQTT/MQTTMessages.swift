import Events
import Fences
import JSONOutput
import NMEA
import Presentation

/// The topics and payloads of MQTT, documented field by field in docs/mqtt.md. Pure functions
/// of their inputs, so tests and the docs can reason about them.
public enum MQTTMessages {
    public static func eventTopic(prefix: String) -> String { prefix + "/event" }
    public static func statusTopic(prefix: String) -> String { prefix + "/status" }
    /// The alarm (docs/mqtt.md): retained, its last event; `PREFIX/alarm/set` takes `ack`.
    public static func alarmTopic(prefix: String) -> String { prefix + "/alarm" }
    /// Retained: the last `integrity` event (docs/mqtt.md).
    public static func integrityTopic(prefix: String) -> String { prefix + "/integrity" }
    public static func alarmCommandTopic(prefix: String) -> String { prefix + "/alarm/set" }
    public static func locationTopic(prefix: String) -> String { prefix + "/location" }

    /// `PREFIX/fence/ID`. The id is one topic level: `/`, `+`, `#` and `%` in it are written as
    /// `%2F`, `%2B`, `%23`, `%25`, so that any id gives one valid publish topic. Numbers as written.
    public static func fenceTopic(prefix: String, id: FenceID) -> String {
        let text = id.text
        var level = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": level += "%25"
            case "/": level += "%2F"
            case "+": level += "%2B"
            case "#": level += "%23"
            case "\0": level += "%00"
            default: level.unicodeScalars.append(character)
            }
        }
        return prefix + "/fence/" + (level.isEmpty ? "%" : level)
    }

    /// `{"state":"online"|"offline","time":...,"client":...}`; the last will has no time (it is
    /// fixed when the connection is made).
    public static func status(_ state: String, time: UTCTime?, client: String) -> String {
        var line = JSONLine()
        line.add("state", state)
        line.add("time", time?.description)
        line.add("client", client)
        line.add("version", 1)
        return line.string
    }

    /// `{"id":...,"name":...,"state":"inside"|"outside","since":...}`.
    public static func fenceState(id: FenceID, name: String?, inside: Bool, since: UTCTime) -> String {
        var line = JSONLine()
        line.addRaw("id", json: id.json)
        if let name { line.add("name", name) }
        line.add("state", inside ? "inside" : "outside")
        line.add("since", since.description)
        return line.string
    }

    /// `{"time","lat","lon","alt","accuracy","speed","track","mode"}`: the location names of docs/formats.md.
    public static func location(_ fix: Fix, time: UTCTime) -> String {
        var line = JSONLine()
        line.add("time", time.description)
        line.add("lat", fix.latitude, decimals: JSONPrecision.coordinate)
        line.add("lon", fix.longitude, decimals: JSONPrecision.coordinate)
        // Absent fields (docs/mqtt.md): what the receiver did not report is left out, not null.
        if let altitude = fix.altitude { line.add("alt", altitude, decimals: JSONPrecision.metres) }
        if let accuracy = fix.accuracy { line.add("accuracy", accuracy, decimals: JSONPrecision.metres) }
        if let speed = fix.speed { line.add("speed", speed, decimals: JSONPrecision.speed) }
        if let track = fix.track { line.add("track", track, decimals: JSONPrecision.degrees) }
        line.add("mode", fix.mode == .threeD ? "3d" : "2d")
        return line.string
    }

    /// An OwnTracks region as locations and waypoints name it.
    public struct OwnTracksRegion: Sendable, Equatable {
        /// The fence id as text (`rid`).
        public var rid: String
        /// The fence name, else its id (`desc`).
        public var desc: String
    }

    /// OwnTracks `location` (`t` = `p`, a periodic ping): `tst` Unix seconds, `vel` km/h and
    /// `acc`, `alt`, `cog` as integers, as the OwnTracks apps send them; `inregions`/`inrids` the
    /// OwnTracks regions the receiver is inside (possibly none). Nil for a fix without an accuracy
    /// estimate: Home Assistant drops a location without `acc`, or with `acc` 0, so `acc` is at
    /// least 1.
    public static func ownTracksLocation(_ fix: Fix, time: UTCTime, tid: String, inside regions: [OwnTracksRegion])
        -> String?
    {
        guard let accuracy = fix.accuracy.flatMap(rounded), accuracy >= 0 else { return nil }
        var line = JSONLine()
        line.add("_type", "location")
        line.add("lat", fix.latitude, decimals: JSONPrecision.coordinate)
        line.add("lon", fix.longitude, decimals: JSONPrecision.coordinate)
        line.add("tst", unixSeconds(time))
        line.add("acc", max(1, accuracy))
        if let altitude = fix.altitude.flatMap(rounded) { line.add("alt", altitude) }
        if let velocity = fix.speed.flatMap({ rounded($0 * 3.6) }) { line.add("vel", velocity) }
        if let course = fix.track.flatMap(rounded) { line.add("cog", course) }
        line.add("tid", tid)
        line.add("t", "p")
        line.addArray("inregions", strings: regions.map(\.desc))
        line.addArray("inrids", strings: regions.map(\.rid))
        return line.string
    }

    /// OwnTracks `waypoints` (retained on `owntracks/USER/DEVICE/waypoints`): one `waypoint` per
    /// marked circle, which Home Assistant's OwnTracks integration can import as zones. `tst` is
    /// when this process registered the fence, as `wtst` in transitions.
    public static func ownTracksWaypoints(
        _ circles: [(region: OwnTracksRegion, circle: CircleShape, registered: UTCTime)]
    )
        -> String
    {
        var list: [String] = []
        for entry in circles {
            var waypoint = JSONLine()
            waypoint.add("_type", "waypoint")
            waypoint.add("desc", entry.region.desc)
            waypoint.add("lat", entry.circle.lat, decimals: JSONPrecision.coordinate)
            waypoint.add("lon", entry.circle.lon, decimals: JSONPrecision.coordinate)
            waypoint.add("rad", rounded(entry.circle.radius).map { max(1, $0) })
            waypoint.add("tst", unixSeconds(entry.registered))
            waypoint.add("rid", entry.region.rid)
            list.append(waypoint.string)
        }
        var line = JSONLine()
        line.add("_type", "waypoints")
        line.addArray("waypoints", json: list)
        return line.string
    }

    /// Home Assistant's device tracker attributes: `latitude`, `longitude`, `gps_accuracy` (m),
    /// `altitude` (m), `speed` (km/h), `course` (degrees); unknown ones are left out.
    public static func homeAssistantTracker(_ fix: Fix) -> String {
        var line = JSONLine()
        line.add("latitude", fix.latitude, decimals: JSONPrecision.coordinate)
        line.add("longitude", fix.longitude, decimals: JSONPrecision.coordinate)
        if let accuracy = fix.accuracy { line.add("gps_accuracy", accuracy, decimals: JSONPrecision.metres) }
        if let altitude = fix.altitude { line.add("altitude", altitude, decimals: JSONPrecision.metres) }
        if let speed = fix.speed { line.add("speed", speed * 3.6, decimals: JSONPrecision.speed) }
        if let track = fix.track { line.add("course", track, decimals: JSONPrecision.degrees) }
        return line.string
    }

    /// The receiver sensors: `speed` km/h, `satellites` used, fix `quality` (GGA's number) and
    /// `fix_quality` (its word), `accuracy` m, `odometer_today` km, `receiver` `connected`/`lost`,
    /// `fix` `usable`/`lost`, `motion` `stationary`/`moving`, and with an anchor watch
    /// `anchor_distance` (m), `anchor_bearing` (degrees true, from the receiver to the anchor) and
    /// `anchor_max_distance` (m, the largest distance so far).
    /// Unknown values are `null` (Home Assistant shows them as unknown).
    /// - Parameter odometerToday: metres.
    public static func homeAssistantReceiver(
        _ fix: Fix?, connected: Bool, fixUsable: Bool, motion: HomeAssistantMotion?, odometerToday: Double,
        anchor: CircleShape? = nil, anchorMaxDistance: Double? = nil
    ) -> String {
        var line = JSONLine()
        line.add("speed", fix?.speed.map { $0 * 3.6 }, decimals: JSONPrecision.speed)
        line.add("satellites", fix?.satellitesUsed)
        line.add("quality", fix?.quality)
        line.add("fix_quality", fix?.quality.flatMap(HomeAssistantFixQuality.init(gga:))?.rawValue)
        line.add("accuracy", fix?.accuracy, decimals: JSONPrecision.metres)
        line.add("odometer_today", odometerToday / 1000, decimals: JSONPrecision.seconds)
        line.add("receiver", connected ? "connected" : "lost")
        line.add("fix", fixUsable ? "usable" : "lost")
        line.add("motion", motion?.rawValue)
        if let anchor {
            let distance = fix.map {
                Geodesy.haversine(lat1: $0.latitude, lon1: $0.longitude, lat2: anchor.lat, lon2: anchor.lon)
            }
            let bearing = fix.map {
                Geodesy.bearing(lat1: $0.latitude, lon1: $0.longitude, lat2: anchor.lat, lon2: anchor.lon)
            }
            line.add("anchor_distance", distance, decimals: JSONPrecision.metres)
            line.add("anchor_bearing", bearing, decimals: JSONPrecision.degrees)
            line.add("anchor_max_distance", anchorMaxDistance, decimals: JSONPrecision.metres)
        }
        return line.string
    }

    /// OwnTracks `transition` for `enter` and `exit` (`leave`); nil for every other event.
    /// `wtst` (when the waypoint was made) is when this process registered the fence.
    public static func ownTracksTransition(_ event: GeofenceEvent, fences: FenceSet, registered: UTCTime, tid: String)
        -> String?
    {
        guard let fence = event.fence, let word = ownTracksEvent(event.kind) else { return nil }
        var line = JSONLine()
        line.add("_type", "transition")
        line.add("event", word)
        line.add("desc", fences.name(fence) ?? fences.ids[fence].text)
        line.add("rid", fences.ids[fence].text)
        line.add("lat", event.location?.latitude, decimals: JSONPrecision.coordinate)
        line.add("lon", event.location?.longitude, decimals: JSONPrecision.coordinate)
        line.add("tst", unixSeconds(event.time))
        line.add("wtst", unixSeconds(registered))
        if let accuracy = event.location?.accuracy.flatMap(rounded) { line.add("acc", max(1, accuracy)) }
        line.add("tid", tid)
        line.add("t", "c")
        return line.string
    }

    /// OwnTracks' word for a transition; nil for the kinds that are none.
    static func ownTracksEvent(_ kind: GeofenceEvent.Kind) -> String? {
        switch kind {
        case .enter: "enter"
        case .exit: "leave"
        case .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost, .deviceConnected,
            .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning, .alarm,
            .alarmAcknowledged, .alarmCleared, .integrity:
            nil
        }
    }

    static func unixSeconds(_ time: UTCTime) -> Int {
        Int((time.millisecondsSinceEpoch - ((time.millisecondsSinceEpoch % 1000) + 1000) % 1000) / 1000)
    }

    static func rounded(_ value: Double) -> Int? {
        guard value.isFinite, abs(value) < 1e12 else { return nil }
        return Int(value.rounded())
    }
}

extension MQTTMessages {
    /// A message on `PREFIX/alarm/set`: `ack` answers the alarm (Home Assistant's button sends it).
    /// A retained one is refused: it would answer every alarm to come, at each reconnection.
    static func alarmCommand(
        _ payload: [UInt8], retained: Bool, topic: String, answers: AlarmAnswers, report: (Problem) -> Void
    ) {
        let text = String(decoding: payload.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.lowercased() == "ack" else {
            report(.broker(.notACommand(topic: topic, payload: text)))
            return
        }
        guard !retained else {
            report(.broker(.retainedAck(topic: topic)))
            return
        }
        answers.post(.mqtt)
    }
}
