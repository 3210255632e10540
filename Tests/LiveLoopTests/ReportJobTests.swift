import NMEA
import Testing

@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// `report`'s own option, `--since`: a duration back from now or a UTC time.
@Suite struct ReportJobTests {
    @Test func sinceTakesDurationsAndUTCTimes() {
        let now: Int64 = 1_770_120_000_000
        #expect(ReportJob.since("2h", now: now) == now - 7_200_000)
        #expect(ReportJob.since("30m", now: now) == now - 1_800_000)
        #expect(ReportJob.since("90s", now: now) == now - 90_000)
        #expect(ReportJob.since("7d", now: now) == now - 7 * 86_400_000)
        // 2026-02-03 is day 20,487 since 1970.
        let tenOClock: Int64 = 20_487 * 86_400_000 + 36_000_000
        #expect(ReportJob.since("2026-02-03T10:00:00Z", now: now) == tenOClock)
        #expect(ReportJob.since("2026-02-03T10:00:00.250Z", now: now) == tenOClock + 250)
        for bad in ["yesterday", "2x", "-2h", "", "2026-02-30T10:00:00Z", "2026-02-03T25:00:00Z"] {
            #expect(ReportJob.since(bad, now: now) == nil, "\(bad)")
        }
    }
}
