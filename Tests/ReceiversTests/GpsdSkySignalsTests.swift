import Foundation
import NMEA
import Receivers
import Testing

/// The sky of gpsd's reports for the integrity monitor: each satellite's C/N0 (`ss`) of SKY, its
/// DOPs, and GST's error ellipse, gathered per cycle by `GpsdSkyTracker`. Checked against every
/// SKY and GST line of gpsd's own regression output, decoded separately with Foundation's
/// JSONSerialization (test only).
@Suite struct GpsdSkySignalsTests {
    func scan(_ text: String) -> GpsdReport? { GpsdSkyTests().scan(text) }

    /// Every SKY with a satellite list lists each satellite that has a number, with its `ss`
    /// rounded as its C/N0 (none when 0 or absent); one without a list is not `listed`.
    @Test func everySKYLineOfTheGpsdRegressionOutputGivesItsSignals() throws {
        let folder = GpsdReportTests.capturesFolder
        var lists = 0
        var problems: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".chk") {
            let text = try String(decoding: Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"SKY\"") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let report = scan(String(line))
                else { continue }
                guard let satellites = object["satellites"] as? [[String: Any]] else {
                    if report.sky.listed { problems.append("\(file): listed without satellites") }
                    continue
                }
                lists += 1
                let numbered = satellites.filter { satellite in
                    let svid = (satellite["svid"] as? NSNumber)?.intValue ?? 0
                    let prn = (satellite["PRN"] as? NSNumber)?.intValue ?? 0
                    return (satellite["gnssid"] != nil && svid > 0) || prn > 0
                }
                let expected = numbered.prefix(EpochSky.capacity).compactMap { satellite -> Int? in
                    guard let ss = (satellite["ss"] as? NSNumber)?.doubleValue, ss >= 0.5 else { return nil }
                    return Int(ss.rounded())
                }
                let sky = report.sky
                let got = (0..<sky.count).compactMap { sky.signal($0).cn0.map(Int.init) }
                if !sky.listed || sky.count != min(numbered.count, EpochSky.capacity) || got != expected {
                    problems.append("\(file): \(sky.count) satellites, C/N0 \(got) != \(expected)")
                }
            }
        }
        #expect(lists > 100, "\(lists)")
        #expect(problems.isEmpty, "\(problems.count) differences, first: \(problems.prefix(5))")
    }

    /// Every GST line gives its ellipse: `major`, `minor`, and `alt` as the altitude error.
    @Test func everyGSTLineOfTheGpsdRegressionOutputGivesItsEllipse() throws {
        let folder = GpsdReportTests.capturesFolder
        var ellipses = 0
        var problems: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".chk") {
            let text = try String(decoding: Data(contentsOf: folder.appendingPathComponent(file)), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where line.contains("\"class\":\"GST\"") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let major = (object["major"] as? NSNumber)?.doubleValue,
                    let minor = (object["minor"] as? NSNumber)?.doubleValue
                else { continue }
                ellipses += 1
                let ellipse = scan(String(line))?.ellipse
                let altitude = (object["alt"] as? NSNumber)?.doubleValue
                if ellipse != EpochSky.ErrorEllipse(semiMajor: major, semiMinor: minor, altitudeError: altitude) {
                    problems.append("\(file): \(String(describing: ellipse)) for \(line)")
                }
            }
        }
        #expect(ellipses > 10, "\(ellipses)")
        #expect(problems.isEmpty, "\(problems.count) differences, first: \(problems.prefix(3))")
    }

    /// Satellites known by constellation and number are told apart across constellations (GPS 3
    /// is not Galileo 3), and a satellite without a signal is listed, untracked.
    @Test func satellitesAreKnownByConstellationAndNumber() throws {
        let report = try #require(
            scan(
                #"{"class":"SKY","uSat":2,"pdop":1.9,"vdop":1.4,"hdop":1.1,"satellites":[{"PRN":3,"gnssid":0,"svid":3,"ss":41.6,"used":true},{"PRN":303,"gnssid":2,"svid":3,"ss":38,"used":true},{"PRN":5,"gnssid":0,"svid":5,"ss":0,"used":false}]}"#
            ))
        let sky = report.sky
        #expect(sky.listed && sky.count == 3 && sky.tracked == 2)
        #expect(!sky.signal(0).isSame(as: sky.signal(1)))
        #expect(sky.signal(0).cn0 == 42 && sky.signal(1).cn0 == 38 && sky.signal(2).cn0 == nil)
        #expect(sky.pdop == 1.9 && sky.vdop == 1.4 && report.hdop == 1.1)
    }

    /// A SKY of a cycle without a fix (no satellite used) keeps the 99.9 DOPs out, as NMEA's GSA
    /// of no fix is kept out; the satellites still count.
    @Test func theDOPsOfACycleWithoutAFixAreNotTaken() throws {
        let report = try #require(
            scan(
                #"{"class":"SKY","uSat":0,"pdop":99.9,"vdop":99.9,"hdop":99.9,"satellites":[{"PRN":3,"ss":30,"used":false}]}"#
            ))
        #expect(report.sky.pdop == nil && report.sky.vdop == nil && report.hdop == nil)
        #expect(report.sky.listed && report.sky.tracked == 1)
    }

    /// The tracker: a SKY is `listed` for the first cycle taken after it only, its satellites and
    /// DOPs stay for the next; a SKY of DOPs alone keeps the satellites; a GST joins the cycle of
    /// its own time, also when the next epoch's GST came first (gpsd sends GST before the TPV).
    @Test func theTrackerGivesEachCycleItsSky() throws {
        var tracker = GpsdSkyTracker()
        let at = { (second: Int64) in UTCTime(millisecondsSinceEpoch: 1_770_112_800_000 + second * 1000) }
        for line in [
            #"{"class":"SKY","uSat":4,"pdop":1.8,"vdop":1.5,"satellites":[{"PRN":3,"ss":40,"used":true},{"PRN":5,"ss":38,"used":true}]}"#,
            #"{"class":"GST","time":"2026-02-03T10:00:00.000Z","rms":2.0,"major":3.0,"minor":2.0,"alt":4.0}"#,
            #"{"class":"GST","time":"2026-02-03T10:00:01.000Z","rms":2.0,"major":7.0,"minor":5.0,"alt":9.0}"#,
        ] {
            tracker.add(try #require(scan(line)))
        }
        let first = tracker.take(at: at(0))
        #expect(first.listed && first.count == 2 && first.pdop == 1.8)
        #expect(first.ellipse == EpochSky.ErrorEllipse(semiMajor: 3, semiMinor: 2, altitudeError: 4))
        tracker.add(try #require(scan(#"{"class":"SKY","pdop":2.4}"#)))
        let second = tracker.take(at: at(1))
        #expect(!second.listed && second.count == 2 && second.pdop == 2.4 && second.vdop == 1.5)
        #expect(second.ellipse?.semiMajor == 7)
        let third = tracker.take(at: at(2))
        #expect(third.ellipse == nil, "no GST of its time")
    }
}
