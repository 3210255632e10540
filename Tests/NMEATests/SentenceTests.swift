import Testing

@testable import NMEA

@Suite struct SentenceTests {
    @Test func ggaFields() {
        guard case .gga(let gga) = decode(nmea("GPGGA,123519.25,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.time == TimeOfDay(milliseconds: ((12 * 60 + 35) * 60 + 19) * 1000 + 250))
        #expect(gga.latitude == 48.1173)
        // 11° 31' is 11.5166...°, kept at the 1e-9° every output prints.
        #expect(gga.longitude == 11.516666667)
        #expect(gga.quality == 1)
        #expect(gga.satellitesUsed == 8)
        #expect(gga.hdop == 0.9)
        #expect(gga.altitude == 545.4)
        #expect(gga.geoidSeparation == 46.9)
        #expect(gga.dgpsAge == nil)
        #expect(gga.dgpsStation == nil)
    }

    @Test func southAndWestAreNegative() {
        guard case .rmc(let rmc) = decode(nmea("GNRMC,030719.000,A,3747.0873,S,17514.3286,W,0.0,0.0,311214,,,A"))
        else {
            Issue.record("not an RMC")
            return
        }
        #expect(rmc.latitude! < 0 && rmc.longitude! < 0)
        #expect(rmc.latitude == -37.784788333)
    }

    /// The angle is the 9-decimal number gpsd's TPV carries for the same sentence (and every
    /// output prints), to the last bit: a fence edge laid on a printed position decides alike on
    /// both paths. 4404.1356' is 44.0689266666...°: left unrounded it is 0.04 mm south of
    /// 44.068926667.
    @Test func anglesAreRoundedToTheNinthDecimalOfADegree() {
        guard
            case .gga(let gga) = decode(
                nmea("GPGGA,020957.000,4404.1356,N,12118.8557,W,1,06,0.8,1124.4,M,-19.6,M,,0000"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.latitude == 44.068926667)
        #expect(gga.longitude == -121.314261667)
        // Half a step rounds up (0.00000003' is 5e-10°), and twelve decimals of a minute up to a whole degree.
        guard case .gga(let fine) = decode(nmea("GPGGA,000000,1000.00000003,N,01000.0000001,E,1,06,0.8,0,M,0,M,,")),
            case .gga(let finest) = decode(
                nmea("GPGGA,000000,8959.999999999999,N,17959.999999999970,E,1,06,0.8,0,M,0,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(fine.latitude == 10.000000001)
        #expect(fine.longitude == 10.000000002)
        #expect(finest.latitude == 90)
        #expect(finest.longitude == 180)
    }

    @Test func emptyFieldsAreUnknownNotZero() {
        guard case .gga(let gga) = decode(nmea("GPGGA,,,,,,0,,,,M,,M,,")) else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.time == nil)
        #expect(gga.latitude == nil)
        #expect(gga.altitude == nil)
        #expect(gga.hdop == nil)
        #expect(gga.quality == 0)
        #expect(!gga.hasRealFix)
    }

    @Test func talkerDoesNotMatter() {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "QZ", "GI", "IN"] {
            let sentence = decode(nmea(talker + "GLL,4916.45,N,12311.12,W,225444,A,A"))
            guard case .gll(let gll) = sentence else {
                Issue.record("\(talker)GLL not decoded")
                continue
            }
            #expect(gll.isValid)
        }
    }

    @Test func rmcToleratesNMEA41FieldsAndReadsModeAndStatus() {
        guard
            case .rmc(let rmc) = decode(
                nmea("GPRMC,191504.01,A,3645.876678,N,03124.668626,E,1.0,300.5,110922,3.6,E,A,V"))
        else {
            Issue.record("not an RMC")
            return
        }
        #expect(rmc.mode == UInt8(ascii: "A"))
        #expect(rmc.navigationalStatus == UInt8(ascii: "V"))
        #expect(rmc.magneticVariation == 3.6)
        #expect(rmc.day == 11 && rmc.month == 9 && rmc.twoDigitYear == 22)
        #expect(rmc.isValid)
    }

    @Test func simulatorAndManualModesAreNotRealFixes() {
        for mode in ["S", "M", "N"] {
            guard case .rmc(let rmc) = decode(nmea("GPRMC,120000,A,4807.038,N,01131.000,E,0.0,0.0,010120,,," + mode))
            else {
                Issue.record("not an RMC")
                continue
            }
            #expect(!rmc.isValid, "mode \(mode)")
        }
        guard case .gga(let gga) = decode(nmea("GPGGA,120000,4807.038,N,01131.000,E,8,05,1.0,10.0,M,,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(!gga.hasRealFix)
    }

    @Test func gsaReadsDopsWhateverTheSlotCount() {
        guard case .gsa(let standard) = decode(nmea("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1")) else {
            Issue.record("not a GSA")
            return
        }
        #expect(standard.fixType == 3 && standard.satellitesUsed == 5)
        #expect(standard.pdop == 2.5 && standard.hdop == 1.3 && standard.vdop == 2.1)
        guard case .gsa(let withSystem) = decode(nmea("GNGSA,A,3,78,69,88,87,68,,,,,,,,2.9,1.3,2.6,2")) else {
            Issue.record("not a GSA")
            return
        }
        #expect(withSystem.systemID == 2 && withSystem.hdop == 1.3)
        // i.Trek M3 while it has no fix: claims 2D with no satellites.
        guard case .gsa(let contradictory) = decode(nmea("GPGSA,A,2,,,,,,,,,,,,,50.0,50.0,50.0")) else {
            Issue.record("not a GSA")
            return
        }
        #expect(contradictory.trustedFixType == nil)
    }

    @Test func gsvSatellitesAndSignalID() {
        guard case .gsv(let gsv) = decode(nmea("GPGSV,3,3,10,20,,,,24,12,293,,1")) else {
            Issue.record("not a GSV")
            return
        }
        #expect(gsv.totalMessages == 3 && gsv.messageNumber == 3 && gsv.satellitesInView == 10)
        #expect(gsv.satelliteCount == 2)
        #expect(gsv.satellite(1) == GSV.Satellite(prn: 24, elevation: 12, azimuth: 293, snr: nil))
        #expect(gsv.signalID == 1)
    }

    @Test func gstHorizontalError() {
        guard case .gst(let gst) = decode(nmea("GPGST,172814.0,0.006,0.023,0.020,273.6,0.3,0.4,0.031")) else {
            Issue.record("not a GST")
            return
        }
        #expect(abs(gst.horizontalError! - 0.5) < 1e-12)
    }

    @Test func gbsNamesTheFailedSatelliteOrNone() {
        guard case .gbs(let fault) = decode(nmea("GPGBS,235458.00,1.4,1.3,3.1,03,,-21.4,3.8,1,0")) else {
            Issue.record("not a GBS")
            return
        }
        #expect(fault.time == TimeOfDay(milliseconds: (23 * 3600 + 54 * 60 + 58) * 1000))
        #expect(fault.latitudeError == 1.4 && fault.longitudeError == 1.3 && fault.altitudeError == 3.1)
        #expect(fault.failedSatellite == 3 && fault.reportsFault)
        #expect(fault.missedDetectionProbability == nil && fault.bias == -21.4 && fault.biasDeviation == 3.8)
        #expect(fault.systemID == 1 && fault.signalID == 0)
        guard case .gbs(let clean) = decode(nmea("GPGBS,235503.00,1.6,1.4,3.2,,,,")) else {
            Issue.record("not a GBS")
            return
        }
        #expect(clean.failedSatellite == nil && !clean.reportsFault)
        #expect(clean.systemID == nil)
    }

    @Test func vtgWithAndWithoutUnitLetters() {
        guard case .vtg(let modern) = decode(nmea("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A")) else {
            Issue.record("not a VTG")
            return
        }
        #expect(modern.trackTrue == 54.7 && modern.speedKnots == 5.5 && modern.speedKmh == 10.2)
        guard case .vtg(let old) = decode(nmea("GPVTG,054.7,034.4,005.5,010.2")) else {
            Issue.record("not a VTG")
            return
        }
        #expect(old.trackTrue == 54.7 && old.speedKnots == 5.5)
    }

    @Test func zdaDate() {
        guard case .zda(let zda) = decode(nmea("GPZDA,201530.00,04,07,2002,00,00")) else {
            Issue.record("not a ZDA")
            return
        }
        #expect(zda.date == CivilDate(year: 2002, month: 7, day: 4))
    }

    @Test func txtKeepsItsTextInPlace() {
        let sentence = nmea("GPTXT,01,01,02,ANTSTATUS=OK")
        var text = ""
        Array((sentence + "\r\n").utf8).withUnsafeBytes { bytes in
            Framer().push(bytes) { raw in
                if case .txt(let txt) = Sentence(raw) {
                    text = String(decoding: UnsafeBufferPointer(rebasing: raw.body[txt.text]), as: UTF8.self)
                }
            }
        }
        #expect(text == "ANTSTATUS=OK")
    }

    @Test func othersAreCountedByType() {
        #expect(
            decode(nmea("PGRME,9.1,M,15.0,M,12.0,M"))
                == .other(SentenceType(packed: SentenceAddress("PGRME")!.packed, length: 5)))
        #expect(SentenceAddress("GPHDT")!.type.description == "HDT")
        #expect(SentenceAddress("PGRME")!.type.description == "PGRME")
    }

    @Test func malformedNumbersAreUnknown() {
        guard case .gga(let gga) = decode(nmea("GPGGA,12a519,48x7.038,N,01131.000,Q,1,08,0..9,545.4,M,46.9,M,,")) else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.time == nil)
        #expect(gga.latitude == nil)
        #expect(gga.longitude == nil, "Q is no hemisphere")
        #expect(gga.hdop == nil)
    }

    @Test func outOfRangeCoordinatesAreRejected() {
        guard case .gga(let gga) = decode(nmea("GPGGA,123519,9107.038,N,18131.000,E,1,08,0.9,545.4,M,46.9,M,,")) else {
            Issue.record("not a GGA")
            return
        }
        #expect(gga.latitude == nil)
        #expect(gga.longitude == nil)
        guard case .gga(let minutes) = decode(nmea("GPGGA,123519,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        else {
            Issue.record("not a GGA")
            return
        }
        #expect(minutes.latitude == nil, "67 minutes is not an angle")
    }
}

@Suite struct CivilTimeTests {
    @Test func daysRoundTripAcrossCenturiesAndLeapYears() {
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(!CivilDate(year: 2023, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2024, month: 2, day: 29).isValid)
    }

    @Test func isoText() {
        let time = UTCTime(
            date: CivilDate(year: 2026, month: 2, day: 3), timeOfDay: TimeOfDay(milliseconds: 36_902_007))
        #expect(time.description == "2026-02-03T10:15:02.007Z")
    }

    @Test func weekRolloverMovesOnlyDatesBeforeThePivot() {
        let rolled = WeekRollover.captures.resolve(CivilDate(year: 1999, month: 8, day: 22))
        #expect(rolled == CivilDate(year: 2019, month: 4, day: 7))
        let genuine = CivilDate(year: 2005, month: 3, day: 13)
        #expect(WeekRollover.captures.resolve(genuine) == genuine)
        let live = WeekRollover.live(today: CivilDate(year: 2026, month: 11, day: 21))
        // A receiver hit by the 2019 rollover reports dates 1024 weeks early.
        #expect(live.resolve(CivilDate(year: 2007, month: 4, day: 7)) == CivilDate(year: 2026, month: 11, day: 21))
    }
}

/// `Fields` finds commas eight bytes at a time; it must find exactly the ones a byte loop finds,
/// whatever the other bytes are, at every alignment and near the 64-field capacity.
@Suite struct FieldsWordAtATimeTests {
    func byteLoop(_ body: [UInt8]) -> [Int] {
        var ends: [Int] = []
        for (i, b) in body.enumerated() where b == 0x2C && ends.count < Fields.capacity - 1 { ends.append(i) }
        return ends + [body.count]
    }

    @Test func commasAreFoundAsByByte() {
        var rng = SystemRandomNumberGenerator()
        for length in 0..<130 {
            for _ in 0..<40 {
                // commas among bytes next to them (0x2B, 0x2D, 0xAC has the comma's low bits) and any byte
                let pool: [UInt8] = [0x2C, 0x2C, 0x2B, 0x2D, 0xAC, 0x00, 0xFF, 0x41, 0x30]
                let body = (0..<length).map { _ in
                    Bool.random(using: &rng) ? pool.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
                let want = byteLoop(body)
                body.withUnsafeBufferPointer { buffer in
                    let fields = Fields(buffer)
                    #expect(fields.count == want.count, "length \(length)")
                    for i in 0..<min(fields.count, want.count) {
                        #expect(fields.range(i).upperBound == want[i], "field \(i) of \(body)")
                    }
                }
            }
        }
    }
}
