import Events
import Fences
import Foundation
import Presentation

/// What a hook finds in its environment: ours, plus the event's fields as `GPSFENCE_*` variables,
/// each value bounded.
enum HookEnvironment {
    /// The most bytes of each `GPSFENCE_*` value: a 200 KB fence name would push the
    /// environment past the kernel's limit and the hook would not start at all. The whole event is
    /// on standard input in any case.
    static let valueLimit = 4096

    static func variables(for outgoing: OutgoingEvent, fences: FenceSet, localZone: ZoneOffsets) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        // The broker's password is ours; a hook has no use for it and may log its environment.
        environment[SecretSources.mqttPasswordVariable] = nil
        let event = outgoing.event
        environment["GPSFENCE_EVENT"] = event.kind.rawValue
        environment["GPSFENCE_EVENT_ID"] = bounded(outgoing.id)
        environment["GPSFENCE_TIME"] = event.time.description
        if let fence = event.fence {
            environment["GPSFENCE_FENCE_ID"] = bounded(fences.ids[fence].text)
            environment["GPSFENCE_FENCE_NAME"] = bounded(fences.name(fence) ?? "")
        }
        if let location = event.location {
            environment["GPSFENCE_LAT"] = location.latitude.description
            environment["GPSFENCE_LON"] = location.longitude.description
        }
        // The rules' fields (docs/fences.md, "Rules"), so that a shell-free hook can act on them
        // without parsing its standard input: each broken restriction's flag and the fence's limit
        // (`GPSFENCE_TOO_LOW=1`, `GPSFENCE_CLEARANCE=3.2`), the speeding's speed and limit.
        let rules = event.fenceRules(in: fences, localZone: localZone)
        for restriction in event.restrictions {
            let definition = restriction.definition
            environment["GPSFENCE_" + definition.flag.uppercased()] = "1"
            if let limit = rules.flatMap(definition.limit) {
                environment["GPSFENCE_" + limit.key.uppercased()] = limit.value.description
            }
        }
        if case .speeding(let speeding) = event.payload {
            environment["GPSFENCE_SPEED"] = speeding.speed.description
            environment["GPSFENCE_SPEED_LIMIT"] = speeding.limit.description
        }
        // `integrity`: the state, its reasons (`cn0_drop,satellites_lost`) and since when.
        if case .integrity(let integrity) = event.payload {
            environment["GPSFENCE_INTEGRITY"] = integrity.state.rawValue
            environment["GPSFENCE_INTEGRITY_REASONS"] = integrity.reasons.names
            environment["GPSFENCE_INTEGRITY_SINCE"] = integrity.since.description
        }
        return environment
    }

    /// `value` as an environment value: NUL characters dropped (a C string cannot hold them) and cut
    /// to at most `valueLimit` bytes of UTF-8, at a character boundary.
    static func bounded(_ value: String) -> String {
        var utf8 = Array(value.utf8)
        utf8.removeAll { $0 == 0 }
        guard utf8.count > valueLimit else {
            return utf8.count == value.utf8.count ? value : String(decoding: utf8, as: UTF8.self)
        }
        var end = valueLimit
        // Back up over continuation bytes (10xxxxxx) to the start of the character that does not fit.
        while end > 0 && utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }
}
