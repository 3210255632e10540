import Foundation
import NMEA
import Testing

@testable import Jobs
@testable import LiveLoop
@testable import Tools

@Suite struct SPSCRingTests {
    @Test func capacityIsFixedAndRoundedToAPowerOfTwo() {
        #expect(SPSCRing<Int>(capacity: 1000).capacity == 1024)
        #expect(SPSCRing<Int>(capacity: 1).capacity == 2)
    }

    @Test func fullRingDropsTheNewElementAndCountsIt() {
        let ring = SPSCRing<Int>(capacity: 4)
        for value in 0..<4 { #expect(ring.push(value)) }
        #expect(!ring.push(4))
        #expect(!ring.push(5))
        #expect(ring.overflow == 2)
        #expect((0..<4).map { _ in ring.pop() } == [0, 1, 2, 3])
        #expect(ring.pop() == nil)
        #expect(ring.push(6))
        #expect(ring.pop() == 6)
    }

    @Test func carriesFixesIntact() {
        let ring = SPSCRing<Fix>(capacity: 8)
        let fix = Fix(
            time: UTCTime(millisecondsSinceEpoch: 1_700_000_000_123), timeOfDay: TimeOfDay(milliseconds: 123),
            latitude: 42.280597, longitude: -83.751891, altitude: nil, speed: 13.4, track: 271, mode: .threeD,
            accuracy: 4.2)
        ring.push(fix)
        #expect(ring.pop() == fix)
    }

    /// A real producer thread and a real consumer thread: every element arrives once, in order,
    /// and nothing is counted as overflow unless it was refused to the producer.
    @Test func orderedAndLosslessAcrossThreads() {
        let ring = SPSCRing<Int>(capacity: 64)
        let total = 50_000
        let refused = ManagedCounter()
        let producer = Thread {
            for value in 0..<total {
                // The test's producer retries; the real reader drops instead.
                while !ring.push(value) {
                    refused.increment()
                    sched_yield()
                }
            }
        }
        var received: [Int] = []
        received.reserveCapacity(total)
        producer.start()
        while received.count < total {
            if let value = ring.pop() { received.append(value) } else { sched_yield() }
        }
        #expect(received == Array(0..<total))
        #expect(ring.overflow == refused.value)
        #expect(ring.pop() == nil)
    }
}

/// A counter only the producer thread writes and the test reads after the consumer saw everything.
final class ManagedCounter: @unchecked Sendable {
    private(set) var value = 0
    func increment() { value += 1 }
}

@Suite struct SPSCRingOwnershipTests {
    final class Tracked: @unchecked Sendable {
        nonisolated(unsafe) static var alive = 0
        init() { Tracked.alive += 1 }
        deinit { Tracked.alive -= 1 }
    }

    /// Non-trivial elements (device events carry strings) are moved through, and the ones left
    /// in the ring are released with it.
    @Test func referenceElementsAreNeitherLeakedNorFreedTwice() {
        do {
            let ring = SPSCRing<Tracked>(capacity: 4)
            for _ in 0..<4 { ring.push(Tracked()) }
            #expect(!ring.push(Tracked()), "full")
            #expect(Tracked.alive == 4)
            _ = ring.pop()
            #expect(Tracked.alive == 3)
        }
        #expect(Tracked.alive == 0)
    }
}
