import Testing

@testable import NMEA

@Suite struct FixAssemblerTests {
    /// One u-blox style cycle: RMC, VTG, GGA, GSA, GLL (GLL is the cycle's last timed sentence).
    func cycle(_ second: Int, lat: String = "4807.038") -> [String] {
        let time = "1200" + (second < 10 ? "0" : "") + String(second) + ".00"
        return [
            nmea("GPRMC,\(time),A,\(lat),N,01131.000,E,10.0,90.0,230324,,,A"),
            nmea("GPVTG,90.0,T,,M,10.0,N,18.5,K,A"),
            nmea("GPGGA,\(time),\(lat),N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
            nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,0.9,2.1"),
            nmea("GPGLL,\(lat),N,01131.000,E,\(time),A,A"),
        ]
    }

    @Test func mergesOneEpochIntoOneFix() throws {
        let result = fixes(cycle(1))
        #expect(result.count == 1)
        let fix = try #require(result.first?.fix)
        #expect(fix.time?.description == "2024-03-23T12:00:01.000Z")
        #expect(fix.altitude == 545.4)
        #expect(abs(fix.speed! - 10 * 1852.0 / 3600) < 1e-12)
        #expect(fix.track == 90)
        #expect(fix.mode == .threeD)
        #expect(fix.quality == 1 && fix.satellitesUsed == 8 && fix.hdop == 0.9)
        #expect(abs(fix.accuracy! - 0.9 * AccuracyModel().autonomous) < 1e-12)
    }

    @Test func emitsOnTheLearnedCycleEndNotAtTheNextEpoch() {
        let lines = (1...5).flatMap { cycle($0) }
        let result = fixes(lines)
        #expect(result.count == 5)
        // Epochs 1 and 2 teach the assembler that GLL ends the cycle (it is emitted when the
        // next time arrives); from epoch 3 on, each fix leaves with its own GLL: sentence 15, 20, 25.
        #expect(result.map(\.afterSentences) == [6, 11, 15, 20, 25])
    }

    @Test func sameFixesWhateverTheChunking() {
        let lines = (1...6).flatMap { cycle($0) }
        let whole = fixes(lines).map(\.fix)
        for chunk in [1, 5, 13] {
            #expect(fixes(lines, chunk: chunk).map(\.fix) == whole)
        }
    }

    @Test func invalidStatusYieldsNoPosition() {
        let lines = [
            nmea("GPRMC,120001.00,V,4807.038,N,01131.000,E,,,230324,,,N"),
            nmea("GPGGA,120001.00,4807.038,N,01131.000,E,0,00,,,M,,M,,"),
        ]
        #expect(fixes(lines).isEmpty)
    }

    @Test func zeroZeroIsNotAPosition() {
        #expect(fixes([nmea("GPRMC,120001.00,A,0000.000,N,00000.000,E,0.0,0.0,230324,,,A")]).isEmpty)
    }

    @Test func dateCarriesPastMidnight() {
        let lines = [
            nmea("GPRMC,235959.00,A,4807.038,N,01131.000,E,0.0,0.0,311224,,,A"),
            nmea("GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"),
        ]
        let times = fixes(lines).map { $0.fix.time?.description }
        #expect(times == ["2024-12-31T23:59:59.000Z", "2025-01-01T00:00:00.000Z"])
    }

    @Test func noDateMeansNoTimeButStillAPosition() {
        let result = fixes([nmea("ECGLL,4807.038,N,01131.000,E,120001,A")])
        #expect(result.count == 1)
        #expect(result.first?.fix.time == nil)
        #expect(result.first?.fix.timeOfDay == TimeOfDay(milliseconds: 43_201_000))
    }

    @Test func gstGivesTheAccuracy() {
        let lines = [
            nmea("GPGGA,120001.00,4807.038,N,01131.000,E,4,12,0.6,545.4,M,46.9,M,1.0,0001"),
            nmea("GPGST,120001.00,0.006,0.023,0.020,273.6,0.03,0.04,0.031"),
        ]
        #expect(abs(fixes(lines).first!.fix.accuracy! - 0.05) < 1e-12)
    }

    @Test func aLateSentenceNeverDuplicatesAFix() {
        // GGA at 2 Hz, RMC once a second after the GGA of the whole second (as rst39.log does).
        var lines: [String] = []
        for second in 1...4 {
            for tenth in [0, 5] {
                let time = "12000\(second).\(tenth)0"
                lines.append(nmea("GPGGA,\(time),4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
                if tenth == 0 { lines.append(nmea("GPRMC,\(time),A,4807.038,N,01131.000,E,1.0,0.0,230324,,,A")) }
            }
        }
        let times = fixes(lines).compactMap { $0.fix.time?.description }
        #expect(times.count == 8)
        #expect(Set(times).count == 8)
    }
}

@Suite struct RolloverTests {
    /// april6_2019.log: a Telit HE910 just after the April 2019 rollover reports 1999-08-22.
    @Test func twoDigitYear99IsTheRolloverOf2019() {
        let result = fixes([nmea("GPRMC,000231.42,A,4829.0005,N,00022.0016,E,0.16,212.28,220899,,,A")])
        #expect(result.first?.fix.time?.description == "2019-04-07T00:02:31.420Z")
    }

    /// A Raspberry Pi without a real-time clock boots in 1970: the release date is then the
    /// plausible epoch, and dates one or two rollovers early are still corrected.
    @Test func aLiveReceiverIsJudgedAgainstTheReleaseDateWhenTheClockIsUnset() {
        let rollover = WeekRollover.live(today: CivilDate(year: 1970, month: 1, day: 1))
        // 2026-11-24 less 1024 and 2048 weeks (7168 and 14336 days).
        #expect(rollover.resolve(CivilDate(year: 2007, month: 4, day: 10)) == CivilDate(year: 2026, month: 11, day: 24))
        #expect(rollover.resolve(CivilDate(year: 1987, month: 8, day: 25)) == CivilDate(year: 2026, month: 11, day: 24))
        let recent = CivilDate(year: 2025, month: 6, day: 1)
        #expect(rollover.resolve(recent) == recent)
    }

    @Test func theFirstCorrectionIsKeptForTheRunToSay() {
        let decoder = Decoder(rollover: .plausible(epoch: CivilDate(year: 2026, month: 11, day: 24)))
        var times: [String] = []
        let lines = [
            nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,100407,,,A"),
            nmea("GPRMC,120001.00,A,4807.038,N,01131.000,E,0.0,0.0,100407,,,A"),
        ]
        Array(lines.map { $0 + "\r\n" }.joined().utf8).withUnsafeBytes { bytes in
            decoder.push(bytes) { times.append($0.time!.description) }
        }
        decoder.finish { times.append($0.time!.description) }
        #expect(times == ["2026-11-24T12:00:00.000Z", "2026-11-24T12:00:01.000Z"])
        let correction = decoder.assembler.firstRollover
        #expect(correction?.reported == CivilDate(year: 2007, month: 4, day: 10))
        #expect(correction?.periods == 1)
        #expect(Decoder().assembler.firstRollover == nil)
    }

    @Test func aGarbledYearGivesNoDate() {
        let result = fixes([nmea("GPRMC,000231.099,A,4829.0005,N,00022.0015,E,0.15,212.28,2208-1,,,A")])
        #expect(result.count == 1)
        #expect(result.first?.fix.time == nil)
    }
}

@Suite struct NoFixEpochTests {
    @Test func cyclesWithoutAFixStillReportTheirTime() {
        let lines = [
            nmea("GPRMC,120000.00,A,4807.038,N,01131.000,E,0.0,0.0,230324,,,A"),
            nmea("GPGGA,120001.00,,,,,0,00,99.99,,M,,M,,"),
            nmea("GPRMC,120001.00,V,,,,,,,230324,,,N"),
            nmea("GPGGA,120002.00,,,,,0,00,99.99,,M,,M,,"),
        ]
        let decoder = Decoder()
        var fixTimes: [String] = []
        var silentTimes: [String] = []
        Array(lines.map { $0 + "\r\n" }.joined().utf8).withUnsafeBytes { bytes in
            decoder.push(
                bytes, onSentence: { _, _ in }, onFix: { fixTimes.append($0.time!.description) },
                onNoFix: { silentTimes.append($0.time!.description) })
        }
        decoder.finish(
            onFix: { fixTimes.append($0.time!.description) }, onNoFix: { silentTimes.append($0.time!.description) })
        #expect(fixTimes == ["2024-03-23T12:00:00.000Z"])
        #expect(silentTimes == ["2024-03-23T12:00:01.000Z", "2024-03-23T12:00:02.000Z"])
    }
}
