import Events
import Fences
import Foundation
import Platform

/// `--bell [TYPES]` (docs/running.md): rings the terminal bell, a BEL byte written to the controlling
/// terminal (`/dev/tty`), on the chosen event types (default enter and approach), and on the
/// anchor's `exit`; while an alarm sounds, every `alarmRepeat` seconds until it is answered
/// (docs/running.md, "Alarms"). Inside tmux or
/// screen the multiplexer passes it on to the client terminal. Without a controlling terminal (a
/// service), it says so once and does nothing.
public final class BellSink: EventSink {
    /// Immediate: its latency goal is the whole point (docs/running.md, "Power cuts").
    public var waitsForStorage: Bool { false }

    public static let defaultTypes: Set<GeofenceEvent.Kind> = [.enter, .approach]

    public let types: Set<GeofenceEvent.Kind>
    private let terminal: FileHandle?
    private let repeater: AlarmRepeater

    /// - Parameter device: the terminal to ring; `/dev/tty` is the controlling terminal.
    /// - Parameter alarmRepeat: seconds between the rings of an alarm that sounds.
    public init(
        types: Set<GeofenceEvent.Kind> = BellSink.defaultTypes, device: String = "/dev/tty",
        alarmRepeat: Double = 3, report: (Problem) -> Void
    ) {
        self.types = types
        repeater = AlarmRepeater(interval: alarmRepeat)
        do {
            let descriptor = try openTerminalForWriting(device)
            terminal = FileHandle(fileDescriptor: descriptor.rawValue, closeOnDealloc: true)
        } catch {
            terminal = nil
            report(.alert(.bell(BellProblem(device: device, error: error))))
        }
    }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        if let terminal, event.event.kind.alarmRole != .none {
            repeater.follow(event.event) { try? terminal.write(contentsOf: [0x07]) }
            return
        }
        // A vehicle too tall for the fence ahead (any restriction it breaks) rings whatever types were
        // chosen (docs/fences.md), and so does the anchor's exit (docs/running.md, "At anchor").
        let rings =
            types.contains(event.event.kind) || !event.event.restrictions.isEmpty
            || Self.isAnchorAlarm(event.event, fences)
        guard rings, let terminal else { return }
        try? terminal.write(contentsOf: [0x07])
    }

    public func finish() { repeater.stop() }

    /// The anchor's `exit` rings whatever the types: it is the anchor watch's alarm
    /// (docs/running.md, "At anchor").
    static func isAnchorAlarm(_ event: GeofenceEvent, _ fences: FenceSet) -> Bool {
        switch event.payload {
        case .exit(let exit): FenceLayers.isAnchor(fences, exit.fence)
        case .enter, .dwell, .visit, .cross, .approach, .speeding, .fixLost, .fixAcquired, .deviceLost,
            .deviceConnected, .heartbeat, .registered, .unregistered, .error, .stationary, .moving, .anchorWarning,
            .alarm, .alarmAcknowledged, .alarmCleared, .integrity:
            false
        }
    }

    /// Parses `enter,approach`; a failure names the first unknown type.
    public static func types(_ list: String) -> Result<Set<GeofenceEvent.Kind>, BellTypeError> {
        var types = Set<GeofenceEvent.Kind>()
        for name in list.split(separator: ",") {
            guard let kind = GeofenceEvent.Kind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                return .failure(BellTypeError(name: String(name)))
            }
            types.insert(kind)
        }
        return .success(types)
    }
}

public struct BellTypeError: Error, Sendable {
    public let name: String
}
