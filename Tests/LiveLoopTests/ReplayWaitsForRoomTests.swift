import Delivery
import Events
import Fences
import Foundation
import NMEA
import Testing

@testable import LiveLoop

/// A file (a replay) waits for the engine when the ring is full, where a receiver's fixes are
/// dropped: nothing of it is lost, and nothing is said to be.
@Suite struct ReplayWaitsForRoomTests {
    /// Stalls the engine thread on the first fix, long enough for the reader to fill a small ring
    /// and wait for room many times over.
    final class StallingSink: EventSink {
        private var stalled = false
        var observesFixes: Bool { true }
        var waitsForStorage: Bool { false }
        func deliver(_ event: OutgoingEvent, fences: FenceSet) {}
        func observe(_ fix: Fix) {
            guard !stalled else { return }
            stalled = true
            Thread.sleep(forTimeInterval: 0.3)
        }
        func finish() {}
    }

    @Test func aReplayThatWaitsForTheEngineDropsNothingAndSaysNoneWasDropped() throws {
        let run = try EngineLoopTests.Run(fences: EngineLoopTests.circles(["a"]))
        // 15 m a second from 300 m west to 285 m east, through the 50 m circle.
        let steps = (0..<40).map {
            EngineLoopTests.Step.input(EngineLoopTests.fix(Int64($0), east: -300 + 15 * Double($0)))
        }
        let (seen, _) = try run.play(steps, also: [StallingSink()], ringCapacity: 2)
        let kinds: [GeofenceEvent.Kind] = seen.map(\.kind)
        let errors: [String] = seen.filter { $0.kind == GeofenceEvent.Kind.error }.map { "\($0.event)" }
        #expect(errors.isEmpty, "\(errors)")
        let transitions: [GeofenceEvent.Kind] = kinds.filter(\.isTransition)
        #expect(transitions == [.enter, .exit])
        let enter = try #require(seen.first { $0.kind == .enter })
        let exit = try #require(seen.first { $0.kind == .exit })
        // The fixes inside are those 45 m or less from the centre: none was skipped on the way.
        #expect(enter.time.millisecondsSinceEpoch == EngineLoopTests.start + 17_000)
        #expect(exit.time.millisecondsSinceEpoch > enter.time.millisecondsSinceEpoch)
    }
}
