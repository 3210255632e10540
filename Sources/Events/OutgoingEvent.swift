import Fences
import NMEA

/// An event on its way out: rendered to its docs/events.md JSON once, for the store and every sink.
public struct OutgoingEvent: Sendable {
    public let event: GeofenceEvent
    /// The docs/events.md object, one line.
    public let json: String
    public let id: String

    public init(_ event: GeofenceEvent, fences: FenceSet) {
        self.event = event
        json = event.json(fences: fences)
        id = event.id(fences: fences)
    }
}
