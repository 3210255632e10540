import Testing

@testable import NMEA

/// A sentence whose time field is there but is no time of day contributes
/// nothing to any epoch (before the fix, it was taken for an untimed sentence and lent its
/// position, date and speed to the epoch in progress), and counts as malformed.
@Suite struct InvalidTimeTests {
    static let badTimes = ["999999.00", "246000.00", "120003.00x", "1200", "12a003.00", "120060.5.0"]

    let gga = nmea("GPGGA,120003.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    func rmc(_ time: String) -> String { nmea("GPRMC,\(time),A,5000.000,S,02000.000,W,55.0,180.0,230324,,,A") }
    func gll(_ time: String) -> String { nmea("GPGLL,5000.000,S,02000.000,W,\(time),A,A") }

    /// Decodes through both paths (the live raw path and the typed path of `decode --sentences`).
    func decodeBoth(_ lines: [String]) -> [(fixes: [Fix], counters: FramerCounters)] {
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        var results: [(fixes: [Fix], counters: FramerCounters)] = []
        for typed in [false, true] {
            let decoder = Decoder()
            var out: [Fix] = []
            bytes.withUnsafeBytes { buffer in
                if typed {
                    decoder.push(buffer, onSentence: { _, _ in }, onFix: { out.append($0) })
                } else {
                    decoder.push(buffer) { out.append($0) }
                }
            }
            decoder.finish { out.append($0) }
            results.append((out, decoder.framer.counters))
        }
        return results
    }

    @Test(arguments: badTimes) func badTimeLendsNothingToTheEpochBeforeIt(time: String) throws {
        for (fixes, counters) in decodeBoth([gga, rmc(time)]) {
            #expect(fixes.count == 1)
            let fix = try #require(fixes.first)
            // The GGA's own position (48°07.038' N, 11°31' E), none of the RMC's (50° S, 20° W).
            #expect(abs(fix.latitude - (48 + 7.038 / 60)) < 1e-9)
            #expect(abs(fix.longitude - (11 + 31.0 / 60)) < 1e-9)
            #expect(fix.speed == nil && fix.track == nil)
            #expect(fix.time == nil)  // no date borrowed from the bad RMC either
            #expect(counters.malformed == 1)
            #expect(counters.sentences == 2)
        }
    }

    @Test(arguments: badTimes) func badTimeLendsNothingToTheEpochAfterIt(time: String) throws {
        for lines in [[rmc(time), gga], [gll(time), gga], [rmc(time), gll(time), gga, rmc(time)]] {
            for (fixes, counters) in decodeBoth(lines) {
                let fix = try #require(fixes.first)
                #expect(fixes.count == 1)
                #expect(fix.latitude > 0 && fix.longitude > 0)
                #expect(fix.timeOfDay.milliseconds == (12 * 3600 + 3) * 1000)
                #expect(counters.malformed == UInt64(lines.count - 1))
            }
        }
    }

    @Test func badTimeAloneMakesNoFix() {
        for (fixes, counters) in decodeBoth([rmc("999999.00"), gll("246000.00")]) {
            #expect(fixes.isEmpty)
            #expect(counters.malformed == 2)
        }
    }

    /// An empty time field is not an invalid one: GLL from early receivers has none and still
    /// counts (docs/nmea.md).
    @Test func emptyTimeIsNotMalformed() {
        let sentence = decode(nmea("GPGLL,4807.038,N,01131.000,E"))
        guard case .gll(let gll) = sentence else {
            Issue.record("not a GLL")
            return
        }
        #expect(!gll.timeIsInvalid)
        guard case .rmc(let bad) = decode(rmc("120003.00x")) else {
            Issue.record("not an RMC")
            return
        }
        #expect(bad.timeIsInvalid && bad.time == nil)
    }
}
