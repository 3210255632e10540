import NMEA
import Platform

/// One ordered stream for the OwnTracks location (retained, latest wins, published from the engine
/// thread) and the OwnTracks transitions (in the outbox, published one acknowledgement at a time
/// by the delivery thread), so that on the broker a transition is never overtaken by a location of
/// a later fix (docs/mqtt.md, "OwnTracks order").
///
/// A location is published at once when no transition is waiting; otherwise it is held, newest
/// wins, in the gap after the last waiting transition, and published right after that
/// transition's PUBACK. A transition is never held back: only locations wait.
final class OwnTracksOrder: Sendable {
    private struct Gap {
        /// The event id of the transition that opens the gap; nil for the rows a previous run left
        /// in the outbox (they end when the outbox is first seen empty).
        var transition: String?
        var delivered = false
        /// The newest location made after that transition (and before the next one).
        var location: [UInt8]?
    }

    private struct State {
        var gaps: [Gap] = []
        /// Transitions delivered before the engine thread said it committed them (the delivery
        /// thread may take a row between the commit and `transitionCommitted`).
        var deliveredEarly: Set<String> = []
    }

    private let state = Locked(State())

    /// The outbox already held rows at start: their transitions go first.
    func holdForBacklog() {
        state.withLock { $0.gaps.append(Gap(transition: nil)) }
    }

    /// Engine thread, after the commit of an event that carries a transition.
    func transitionCommitted(_ eventID: String) {
        state.withLock { state in
            if state.deliveredEarly.remove(eventID) != nil { return }
            state.gaps.append(Gap(transition: eventID))
        }
    }

    /// Engine thread: the location to publish now, or nil when it waits behind a transition.
    func location(_ payload: [UInt8]) -> [UInt8]? {
        state.withLock { state in
            guard !state.gaps.isEmpty else { return payload }
            state.gaps[state.gaps.count - 1].location = payload
            return nil
        }
    }

    /// Delivery thread, after the PUBACK of a transition: the held locations now free to go, in
    /// order.
    func transitionDelivered(_ eventID: String) -> [[UInt8]] {
        state.withLock { state in
            guard let index = state.gaps.firstIndex(where: { $0.transition == eventID }) else {
                state.deliveredEarly.insert(eventID)
                return []
            }
            // The outbox delivers in order: everything before this transition was acknowledged.
            for earlier in 0...index { state.gaps[earlier].delivered = true }
            return Self.release(&state)
        }
    }

    /// Delivery thread: the outbox was seen empty, so a previous run's rows are all delivered.
    func caughtUp() -> [[UInt8]] {
        state.withLock { state in
            guard state.gaps.first.map({ $0.transition == nil }) == true else { return [] }
            state.gaps[0].delivered = true
            return Self.release(&state)
        }
    }

    private static func release(_ state: inout State) -> [[UInt8]] {
        var released: [[UInt8]] = []
        while let first = state.gaps.first, first.delivered {
            if let location = first.location { released.append(location) }
            state.gaps.removeFirst()
        }
        return released
    }
}
