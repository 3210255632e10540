import Geofence

/// An event on its way to the sinks, rendered to JSON once for all of them.
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

/// Where events go. Sinks are called on the engine thread and must return quickly: anything slow
/// (a hook, a webhook) queues the event and works on it elsewhere (SPEC §2).
public protocol EventSink: AnyObject {
    func deliver(_ event: OutgoingEvent, fences: FenceSet)
    /// Called once at the end of a run: flush what is buffered.
    func finish()
    /// Called at the end of a run before any sink's `finish`: end background work within a bounded
    /// time and report what was cut short (through the sink's report function), while the other
    /// sinks still take the resulting `error` events. Most sinks have nothing to do.
    func stop()
}

extension EventSink {
    public func stop() {}
}
