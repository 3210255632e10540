import Testing

@testable import NMEA

/// A live reader's "the line went quiet" closes the epoch in progress at once, until the cycle end
/// is learned; without it (a capture) the fixes are the time changes', as ever.
@Suite struct QuietLineTests {
    func cycle(_ second: Int) -> [String] { ubloxCycle(second) }

    func live(_ bursts: [[String]], quiet: Bool = true) -> [(fix: Fix, afterSentences: UInt64)] {
        liveFixes(bursts, quiet: quiet)
    }

    @Test func theFirstEpochLeavesWhenTheLineGoesQuietNotWhenTheNextBegins() throws {
        let decoder = Decoder()
        var fixes: [Fix] = []
        Array(cycle(1).map { $0 + "\r\n" }.joined().utf8).withUnsafeBytes { decoder.push($0) { fixes.append($0) } }
        #expect(fixes.isEmpty, "the cycle end is not known yet")
        #expect(decoder.epochAwaitsClose)
        decoder.lineWentQuiet(onFix: { fixes.append($0) }, onNoFix: { _ in })
        let fix = try #require(fixes.first)
        #expect(fixes.count == 1)
        #expect(fix.time?.description == "2024-03-23T12:00:01.000Z")
        #expect(fix.altitude == 545.4 && fix.mode == .threeD && fix.track == 90)
        #expect(!decoder.epochAwaitsClose)
        decoder.lineWentQuiet(onFix: { fixes.append($0) }, onNoFix: { _ in })
        Array(cycle(2).map { $0 + "\r\n" }.joined().utf8).withUnsafeBytes { decoder.push($0) { fixes.append($0) } }
        #expect(fixes.count == 1, "the time change does not emit the first epoch again")
    }

    @Test func quietClosesGiveTheFixesOfTheTimeChangesEarlier() {
        let bursts = (1...6).map { cycle($0) }
        let live = live(bursts)
        let replayed = fixes(bursts.flatMap { $0 })
        #expect(live.map(\.fix) == replayed.map(\.fix))
        // Epochs 1 and 2 leave as their bursts end (5 and 10 sentences), not when the next time
        // arrives (6 and 11); from epoch 3 on the learned GLL emits each, as before.
        #expect(live.map(\.afterSentences) == [5, 10, 15, 20, 25, 30])
        #expect(replayed.map(\.afterSentences) == [6, 11, 15, 20, 25, 30])
    }

    @Test func aSentenceAfterTheQuietCloseEndsQuietClosesButNotTheLearning() {
        // The receiver pauses before its GLL: the quiet line closes the first epoch without it.
        let first = cycle(1)
        let bursts = [Array(first.prefix(4)), [first[4]]] + (2...5).map { cycle($0) }
        let live = live(bursts)
        #expect(live.count == 5, "one fix an epoch, the late GLL none")
        // The second epoch is not closed by the quiet line any more: it leaves at the time change
        // (sentence 11); the GLL is still learned as the cycle end and emits epochs 3 to 5.
        #expect(live.map(\.afterSentences) == [4, 11, 15, 20, 25])
        #expect(live.map(\.fix).dropFirst() == fixes(bursts.flatMap { $0 }).map(\.fix).dropFirst())
    }

    @Test func aQuietLineBeforeAnyTimeEmitsNothing() {
        let decoder = Decoder()
        var count = 0
        Array((nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,0.9,2.1") + "\r\n").utf8).withUnsafeBytes {
            decoder.push($0) { _ in count += 1 }
        }
        #expect(!decoder.epochAwaitsClose)
        decoder.lineWentQuiet(onFix: { _ in count += 1 }, onNoFix: { _ in count += 1 })
        #expect(count == 0)
    }
}
