import NMEA

/// An event on its way out: rendered to its SPEC §6 JSON once, for the store and every sink.
public struct OutgoingEvent: Sendable {
    public let event: GeofenceEvent
    /// The SPEC §6 object, one line.
    public let json: String
    public let id: String

    public init(_ event: GeofenceEvent, fences: FenceSet) {
        self.event = event
        json = event.json(fences: fences)
        id = event.id(fences: fences)
    }
}
