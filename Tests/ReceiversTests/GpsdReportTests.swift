import Foundation
import NMEA
import Receivers
import Testing

/// The gpsd JSON scanner against gpsd's own output: every TPV line of the 70 `.chk` files in
/// `../shared/captures/gpsd/`. Expected values come from a separate decode of the same line with
/// Foundation's JSONSerialization (test only) and docs/hardware.md's rules, never from the code under test.
@Suite struct GpsdReportTests {
    static let capturesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures/gpsd")

    /// `2014-12-31T03:07:19.120Z` -> milliseconds since 1970, by Foundation's calendar.
    static func milliseconds(_ iso: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        guard let date = formatter.date(from: iso) ?? plain.date(from: iso) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func number(_ object: [String: Any], _ key: String) -> Double? {
        // (No `is Bool` test: on Linux a JSON 0 bridges as Bool too; TPV numbers are never booleans.)
        (object[key] as? NSNumber)?.doubleValue
    }

    @Test func everyTPVLineOfTheGpsdRegressionOutputScansToItsValues() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.capturesFolder.path)
            .filter { $0.hasSuffix(".chk") }.sorted()
        #expect(files.count == 70)
        var tpvs = 0
        var fixes = 0
        var silent = 0
        var problems: [String] = []
        for file in files {
            let text = try String(
                decoding: Data(contentsOf: Self.capturesFolder.appendingPathComponent(file)), as: UTF8.self)
            for (number, line) in text.split(whereSeparator: \.isNewline).enumerated() where line.hasPrefix("{") {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["class"] as? String == "TPV"
                else { continue }
                tpvs += 1
                let place = "\(file):\(number + 1)"
                var bytes = Array(line.utf8)
                let scanned = bytes.withUnsafeMutableBytes { GpsdReport(UnsafeRawBufferPointer($0)) }
                guard let report = scanned, report.reportClass == .tpv else {
                    problems.append("\(place): not scanned as TPV")
                    continue
                }
                let mode = (object["mode"] as? NSNumber)?.intValue ?? 0
                let lat = Self.number(object, "lat")
                let lon = Self.number(object, "lon")
                let time = (object["time"] as? String).flatMap(Self.milliseconds)
                if report.tpv.mode != mode { problems.append("\(place): mode \(report.tpv.mode) != \(mode)") }
                if report.tpv.time?.millisecondsSinceEpoch != time {
                    problems.append(
                        "\(place): time \(String(describing: report.tpv.time)) != \(String(describing: time))")
                }
                guard mode >= 2, let lat, let lon else {
                    if report.tpv.fix != nil { problems.append("\(place): a fix from a TPV without one") }
                    silent += 1
                    continue
                }
                guard let fix = report.tpv.fix else {
                    problems.append("\(place): no fix")
                    continue
                }
                fixes += 1
                // docs/hardware.md: altMSL else alt; accuracy from eph, else the larger of epx/epy.
                let altitude = Self.number(object, "altMSL") ?? Self.number(object, "alt")
                let eph = Self.number(object, "eph")
                let epx = Self.number(object, "epx")
                let epy = Self.number(object, "epy")
                let accuracy = eph ?? ([epx, epy].compactMap { $0 }.max())
                let expectedMode: Fix.Mode = mode >= 3 ? .threeD : .twoD
                // Both sides round the decimal text correctly to a double: equal, not close.
                if fix.latitude != lat || fix.longitude != lon {
                    problems.append("\(place): position \(fix.latitude),\(fix.longitude) != \(lat),\(lon)")
                }
                if fix.altitude != altitude {
                    problems.append(
                        "\(place): altitude \(String(describing: fix.altitude)) != \(String(describing: altitude))")
                }
                if fix.speed != Self.number(object, "speed") { problems.append("\(place): speed") }
                if fix.track != Self.number(object, "track") { problems.append("\(place): track") }
                if fix.accuracy != accuracy {
                    problems.append(
                        "\(place): accuracy \(String(describing: fix.accuracy)) != \(String(describing: accuracy))")
                }
                if fix.mode != expectedMode { problems.append("\(place): fix mode") }
                if fix.time?.millisecondsSinceEpoch != time { problems.append("\(place): fix time") }
            }
        }
        print("gpsd .chk TPV lines: \(tpvs), fixes: \(fixes), without a fix: \(silent)")
        #expect(tpvs > 5000)
        #expect(fixes > 3700)  // 3766: `chk_to_fixes.py --count` over the same files
        #expect(problems.isEmpty, "\(problems.count) differences, first: \(problems.prefix(10))")
    }

    /// A report's views point into its line: the line is kept for the rest of the test run.
    func scan(_ text: String) -> GpsdReport? {
        let bytes = Array(text.utf8)
        let line = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        line.copyBytes(from: bytes)
        return GpsdReport(UnsafeRawBufferPointer(line))
    }

    /// Numbers take Clinger's exact case or `strtod` (`DecimalText`): every one the double `strtod`
    /// gives for the same text; text that is not wholly a number is absent.
    @Test func numbersOnEveryPathAreStrtodsDoubles() {
        for text in [
            "42.1234567", "-0.5", "0", "1e2", "-1.5E-3", "0.000000000000000000000001", "1234567890123456789",
            "42.12345678901234567890", "179.99999999999999999", "9007199254740993", "4.9e-324",
        ] {
            let lat = scan(#"{"class":"TPV","lat":\#(text)}"#)?.tpv.latitude
            #expect(lat?.bitPattern == strtod(text, nil).bitPattern, "\(text)")
        }
        #expect(scan(#"{"class":"TPV","lat":1e999}"#)?.tpv.latitude == nil)
    }

    @Test func wrongShapesAreRejectedNotTrapped() {
        for bad in [
            "", "garbage", "{", "{\"class\":", "[1,2]", "{\"class\":3}", "{\"mode\":3}", "{\"class\":\"TPV\",}",
            "{\"class\":\"TPV\"} trailing", "{\"class\":\"TPV\",\"lat\":[1,{]}", "{\"class\":\"TP\u{1}V\"}",
            String(repeating: "[", count: 100_000), "{\"class\":\"TPV\",\"x\":\"\\",
        ] {
            #expect(scan(bad) == nil, "\(bad.prefix(40))")
        }
        // Right shape, wrong types: scanned, the fields count as absent, so no fix.
        let odd = scan(#"{"class":"TPV","mode":"3","lat":"42.0","lon":true,"time":12}"#)
        #expect(odd?.reportClass == .tpv)
        #expect(odd?.tpv.mode == 0)
        #expect(odd?.tpv.fix == nil)
        #expect(odd?.tpv.time == nil)
    }

    @Test func accuracyFallsBackToTheLargerOfEpxAndEpy() {
        let tpv = scan(
            #"{"class":"TPV","mode":2,"time":"2026-02-03T10:15:02.5Z","lat":-33.5,"lon":151.25,"epx":3.5,"epy":7.25}"#)?
            .tpv
        #expect(tpv?.fix?.accuracy == 7.25)
        #expect(tpv?.fix?.mode == .twoD)
        #expect(tpv?.fix?.time?.description == "2026-02-03T10:15:02.500Z")
        #expect(tpv?.fix?.timeOfDay.milliseconds == (10 * 3600 + 15 * 60 + 2) * 1000 + 500)
        let none = scan(#"{"class":"TPV","mode":3,"lat":1.5,"lon":2.5}"#)?.tpv.fix
        #expect(none != nil && none?.accuracy == nil && none?.time == nil)
        // Out of range, and exactly 0,0: no position (docs/nmea.md).
        #expect(scan(#"{"class":"TPV","mode":3,"lat":91,"lon":2}"#)?.tpv.fix == nil)
        #expect(scan(#"{"class":"TPV","mode":3,"lat":0,"lon":0}"#)?.tpv.fix == nil)
    }

    @Test func deviceAndDevicesReports() {
        let closed = scan(#"{"class":"DEVICE","path":"/dev/ttyACM0","activated":0}"#)
        #expect(closed?.reportClass == .device)
        #expect(closed?.activated == false)
        #expect(closed?.device.map { String(decoding: $0, as: UTF8.self) } == "/dev/ttyACM0")
        let open = scan(
            #"{"class":"DEVICE","path":"/dev/ttyACM0","driver":"u-blox","activated":"2026-11-23T08:56:53.371Z"}"#)
        #expect(open?.activated == true && open?.hasDriver == true)
        let list = scan(
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/a","activated":"2026-11-23T08:56:53.371Z","driver":"NMEA0183"},{"class":"DEVICE","path":"/dev/b"}]}"#
        )?.devices()
        #expect(list?.map(\.path) == ["/dev/a", "/dev/b"])
        #expect(list?.map(\.activated) == [true, false])
        #expect(list?.first?.driver == "NMEA0183")
        let version = scan(#"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        #expect(version?.reportClass == .version && version?.string("release") == "3.22")
        #expect(
            scan(#"{"class":"ERROR","message":"Unrecognized request \"x\""}"#)?.string("message")
                == #"Unrecognized request "x""#)
    }

    @Test func lineBufferSplitsAndDropsOverlongLinesWhole() {
        let buffer = LineBuffer(capacity: 64)
        var lines: [String] = []
        func feed(_ text: String) {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let space = buffer.freeSpace()
                let count = min(space.count, bytes.count)
                space.copyBytes(from: bytes.prefix(count))
                bytes = bytes.dropFirst(count)
                buffer.commit(count) { lines.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        feed("one\r\ntw")
        feed("o\n")
        feed(String(repeating: "x", count: 1000) + "\nthree\n")
        feed(String(repeating: "y", count: 64))
        feed("\nfour\n")
        #expect(lines == ["one", "two", "three", "four"])
        #expect(buffer.oversizedLines == 2)
    }

    /// Damaged gpsd output never traps: every JSON line of the .chk files, cut, with bytes flipped,
    /// and with JSON's structural characters dropped in (a seeded generator: the same run each time).
    /// Whatever is still accepted as a fix has a position in range.
    @Test func mutatedGpsdLinesNeverTrapAndGiveOnlySaneFixes() throws {
        var lines: [[UInt8]] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.capturesFolder.path).filter({
            $0.hasSuffix(".chk")
        }).sorted() {
            let text = String(
                decoding: try Data(contentsOf: Self.capturesFolder.appendingPathComponent(file)), as: UTF8.self)
            lines += text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("{") }.map { Array($0.utf8) }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {  // SplitMix64
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let specials = Array("{}[]\":,\\-.eE0 tn".utf8) + [0x00, 0xFF, 0x0D]
        var accepted = 0
        var rejected = 0
        for round in 0..<40 {
            for original in lines {
                var line = original
                switch (Int(next() % 4) + round) % 4 {
                case 0: line = Array(line.prefix(Int(next() % UInt64(line.count + 1))))
                case 1: for _ in 0..<3 { line[Int(next() % UInt64(line.count))] = UInt8(truncatingIfNeeded: next()) }
                case 2:
                    for _ in 0..<3 {
                        line.insert(
                            specials[Int(next() % UInt64(specials.count))], at: Int(next() % UInt64(line.count + 1)))
                    }
                default: line.remove(at: Int(next() % UInt64(line.count)))
                }
                let report = line.withUnsafeBytes { GpsdReport($0) }
                guard let report else {
                    rejected += 1
                    continue
                }
                accepted += 1
                if let fix = report.tpv.fix {
                    #expect(abs(fix.latitude) <= 90 && abs(fix.longitude) <= 180 && fix.latitude.isFinite)
                }
                if report.reportClass == .devices { _ = report.devices() }
            }
        }
        #expect(accepted > 10_000 && rejected > 10_000, "accepted \(accepted), rejected \(rejected)")
    }

    @Test func addresses() {
        func parse(_ text: String) -> GpsdAddress? { try? GpsdAddress.parse(text).get() }
        #expect(parse("gpsd://") == GpsdAddress(host: "localhost", port: 2947, device: nil))
        #expect(parse("gpsd://pi.local") == GpsdAddress(host: "pi.local", port: 2947))
        #expect(parse("gpsd://:3000") == GpsdAddress(host: "localhost", port: 3000))
        #expect(
            parse("gpsd://127.0.0.1:2948/dev/ttyACM0")
                == GpsdAddress(host: "127.0.0.1", port: 2948, device: "/dev/ttyACM0"))
        #expect(parse("gpsd://[::1]:2950/dev/gps0") == GpsdAddress(host: "::1", port: 2950, device: "/dev/gps0"))
        #expect(parse("gpsd:///dev/ttyUSB0") == GpsdAddress(device: "/dev/ttyUSB0"))
        #expect(parse("gpsd://host:0") == nil)
        #expect(parse("gpsd://host:x") == nil)
        #expect(parse("gpsd://[::1") == nil)
        #expect(GpsdAddress(host: "::1", port: 2950, device: "/dev/gps0").description == "gpsd://[::1]:2950/dev/gps0")
        #expect(
            GpsdConnection.watchCommand(.init(), device: "/dev/ttyACM0")
                == #"?WATCH={"enable":true,"json":true,"device":"/dev/ttyACM0"}"# + "\n")
        #expect(
            GpsdConnection.watchCommand(.init(json: false, nmea: true), device: nil)
                == #"?WATCH={"enable":true,"nmea":true}"# + "\n")
    }
}
