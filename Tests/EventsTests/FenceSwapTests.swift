import Events
import Fences
import NMEA
import Testing

/// Swapping fence sets under a running engine (docs/running.md, "Changing the fences while it
/// runs"): what the old engine lets go of and what the new one takes over.
@Suite struct FenceSwapTests {
    typealias T = EventEngineTests

    /// An engine whose receiver is inside fence "f" (radius 50 at the centre), 10 m from the centre.
    func insideEngine() throws -> EventEngine {
        let engine = EventEngine(fences: try FenceSet.parse(T.circle(radius: 50)))
        engine.process(T.fix(0, 10)) { _ in }
        #expect(engine.insideFences == [0])
        return engine
    }

    @Test func aFenceReshapedAroundTheReceiverStaysInsideSilently() throws {
        let engine = try insideEngine()
        let match = FenceSetMatch(old: engine.fences, new: try FenceSet.parse(T.circle(radius: 60)))
        #expect(match.arrivals == [0], "reshaped: registered again")
        let departures = engine.departures(in: match)
        #expect(departures.removed.isEmpty && departures.reshaped.isEmpty)
        let next = EventEngine(fences: match.new)
        next.takeOver(from: engine, match: match)
        var events: [GeofenceEvent] = []
        next.enterAtOnce(at: try #require(T.fix(1, 10).time)) { events.append($0) }
        #expect(next.insideFences == [0] && events.isEmpty, "no second enter: \(events)")
    }

    @Test func aFenceReshapedAwayFromTheReceiverIsLeftWithReasonChanged() throws {
        let engine = try insideEngine()
        // 5 m: the receiver, 10 m from the centre, is outside the new shape.
        let match = FenceSetMatch(old: engine.fences, new: try FenceSet.parse(T.circle(radius: 5)))
        let departures = engine.departures(in: match)
        #expect(departures.reshaped == [0] && departures.removed.isEmpty)
        var events: [GeofenceEvent] = []
        engine.leave(departures.reshaped, reason: .changed, at: try #require(T.fix(1, 10).time)) { events.append($0) }
        #expect(events.map(\.payload) == [.exit(GeofenceEvent.Exit(fence: 0, reason: .changed))])
        let next = EventEngine(fences: match.new)
        next.takeOver(from: engine, match: match)
        #expect(next.insideFences.isEmpty)
    }

    @Test func anUnchangedFenceIsNotAnArrivalAndKeepsItsState() throws {
        let engine = try insideEngine()
        let match = FenceSetMatch(old: engine.fences, new: try FenceSet.parse(T.circle(radius: 50)))
        #expect(match.arrivals.isEmpty && match.gone.isEmpty)
        let next = EventEngine(fences: match.new)
        next.takeOver(from: engine, match: match)
        #expect(next.insideFences == [0])
        #expect(next.fenceState(0).since == engine.fenceState(0).since, "its enter time goes on")
    }
}
