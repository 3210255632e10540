import Foundation
import NMEA
import Testing

/// Decodes every gpsd regression log in `../shared/captures/gpsd/` and compares our fixes with the
/// fixes gpsd decoded from the same bytes (the `.chk` beside each log).
///
/// gpsd reports a cycle several times as sentences arrive; its last report for a UTC time is the
/// completed fix, and that is what we compare with. A fix matches when the time is the same, lat/lon
/// agree within 1e-6 degrees, the mode is the same, and altitude (1e-3 m), speed (1e-3 m/s) and
/// track (1e-3 degrees) agree — where gpsd reports a speed or track the receiver never sent (gpsd
/// derives them from successive positions), our "unknown" is counted as agreeing and reported
/// separately. Dates exactly 1024 weeks apart are the same fix read in another GPS week era: they
/// count as matched and are reported separately too. docs/nmea.md explains every difference.
@Suite struct GpsdAgreementTests {
    static let capturesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

    struct Tally {
        var expected = 0, matched = 0, otherEra = 0, derivedOnly = 0, extra = 0
        var differences: [String] = []

        mutating func add(_ other: Tally) {
            expected += other.expected
            matched += other.matched
            otherEra += other.otherEra
            derivedOnly += other.derivedOnly
            extra += other.extra
        }
    }

    @Test func agreesWithGpsdOnEveryRegressionLog() throws {
        let logs = try FileManager.default.contentsOfDirectory(atPath: Self.capturesFolder.path)
            .filter { $0.hasSuffix(".log") }.sorted()
        #expect(logs.count == 70, "the gpsd capture folder should hold 70 logs")
        var total = Tally()
        var report: [String] = []
        for log in logs {
            let url = Self.capturesFolder.appendingPathComponent(log)
            let tally = try compare(log: url, chk: URL(fileURLWithPath: url.path + ".chk"))
            total.add(tally)
            report.append(
                "\(log): expected \(tally.expected) matched \(tally.matched) (other era \(tally.otherEra), "
                    + "gpsd-derived \(tally.derivedOnly)) missing/different \(tally.expected - tally.matched) "
                    + "extra \(tally.extra)"
                    + (tally.differences.isEmpty ? "" : " " + tally.differences.prefix(3).joined(separator: "; ")))
        }
        let percent = Double(total.matched) / Double(max(total.expected, 1)) * 100
        report.append(
            "TOTAL: expected \(total.expected) matched \(total.matched) (\(String(format: "%.2f", percent))%; "
                + "other era \(total.otherEra), gpsd-derived only \(total.derivedOnly)) extra \(total.extra)")
        print(report.joined(separator: "\n"))
        #expect(total.expected > 1500)
        #expect(percent >= 99.0, "agreement with gpsd fell below 99%")
    }

    /// gpsd's completed fixes by time: TPV reports with mode >= 2, a position and a time (the same
    /// filter as `shared/tools/chk_to_fixes.py --require-time`), the last one per time.
    func gpsdFixes(_ chk: URL) throws -> [String: [String: Any]] {
        var fixes: [String: [String: Any]] = [:]
        let text = String(decoding: try Data(contentsOf: chk), as: UTF8.self)
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                object["class"] as? String == "TPV", let mode = object["mode"] as? Int, mode >= 2,
                object["lat"] != nil, object["lon"] != nil, let time = object["time"] as? String
            else { continue }
            fixes[time] = object
        }
        return fixes
    }

    func ourFixes(_ log: URL) throws -> [String: Fix] {
        let decoder = Decoder(skipsCommentLines: true)
        var fixes: [String: Fix] = [:]
        let collect: (Fix) -> Void = { fix in
            if let time = fix.time { fixes[time.description] = fix }
        }
        try Data(contentsOf: log).withUnsafeBytes { decoder.push($0, onFix: collect) }
        decoder.finish(onFix: collect)
        return fixes
    }

    func compare(log: URL, chk: URL) throws -> Tally {
        let ours = try ourFixes(log)
        let gpsd = try gpsdFixes(chk)
        var tally = Tally()
        var used = Set<String>()
        let era = Int64(WeekRollover.period) * 86_400_000
        for (time, report) in gpsd.sorted(by: { $0.key < $1.key }) {
            tally.expected += 1
            var key = time
            if ours[time] == nil, let instant = Self.parse(time) {
                let candidates = [instant + era, instant - era].map {
                    UTCTime(millisecondsSinceEpoch: $0).description
                }
                guard let other = candidates.first(where: { ours[$0] != nil }) else {
                    tally.differences.append("\(time) missing")
                    continue
                }
                key = other
            }
            used.insert(key)
            let fix = ours[key]!
            var problems: [String] = []
            var derived = false
            func number(_ name: String) -> Double? { (report[name] as? NSNumber)?.doubleValue }
            if abs(fix.latitude - number("lat")!) > 1e-6 || abs(fix.longitude - number("lon")!) > 1e-6 {
                problems.append("position")
            }
            if fix.mode.rawValue != report["mode"] as? Int { problems.append("mode") }
            let altitude = number("altMSL") ?? number("alt")
            if !Self.agree(fix.altitude, altitude, 1e-3) { problems.append("altitude") }
            for (name, ourValue) in [("speed", fix.speed), ("track", fix.track)] {
                let theirs = number(name)
                if ourValue == nil, theirs != nil {
                    derived = true
                } else if !Self.agree(ourValue, theirs, 1e-3) {
                    problems.append(name)
                }
            }
            if problems.isEmpty {
                tally.matched += 1
                if key != time { tally.otherEra += 1 }
                if derived { tally.derivedOnly += 1 }
            } else {
                tally.differences.append("\(time) " + problems.joined(separator: ","))
            }
        }
        tally.extra = ours.keys.filter { gpsd[$0] == nil && !used.contains($0) }.count
        return tally
    }

    static func agree(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= tolerance
        default: false
        }
    }

    /// `2014-12-31T03:07:19.000Z` as milliseconds since 1970.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(whereSeparator: { "-T:.Z".contains($0) }).compactMap { Int($0) }
        guard parts.count == 7 else { return nil }
        let date = CivilDate(year: parts[0], month: parts[1], day: parts[2])
        let time = TimeOfDay(milliseconds: ((parts[3] * 60 + parts[4]) * 60 + parts[5]) * 1000 + parts[6])
        return UTCTime(date: date, timeOfDay: time).millisecondsSinceEpoch
    }
}
