import Platform
import Testing

@Suite struct BackoffTests {
    @Test func backoffDoublesToItsCapAndStartsOverAfterASuccess() {
        var backoff = Backoff(initial: 0.5, maximum: 3)
        var delays: [Double] = []
        for _ in 0..<5 { delays.append(backoff.next()) }
        #expect(delays == [0.5, 1, 2, 3, 3])
        backoff.reset()
        #expect(backoff.next() == 0.5)
        let jittered = Backoff(initial: 1, maximum: 300, jitter: true)
        for failures in 1...12 {
            let full = min(300, Double(1 << (failures - 1)))
            let delay = jittered.delay(afterFailures: failures)
            #expect(delay >= full / 2 && delay <= full, "\(failures): \(delay)")
        }
        #expect(jittered.delay(afterFailures: 1_000_000) <= 300)
    }

    @Test func anOutageIsSaidOnceOrAgainWhenItsProblemChanges() {
        var once = OutageLog<String>()
        var said: [Bool] = []
        said.append(once.failed("refused"))
        said.append(once.failed("refused"))
        said.append(once.failed("timed out"))
        said.append(once.recovered())
        said.append(once.recovered())
        said.append(once.failed("refused"))
        #expect(said == [true, false, false, true, false, true])

        var changes = OutageLog<String>(.whenTheProblemChanges)
        let first = changes.failed("no such device")
        let same = changes.failed("no such device")
        let other = changes.failed("permission denied")
        #expect(first && !same && other)
    }
}
