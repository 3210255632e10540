import Foundation
import Testing

@Suite struct DecodeCommandTests {
    let sample = "captures/gpsd-sample/ublox-neo-m9n-nmea.log"

    func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func decodesTheBundledCaptureIntoOneObjectPerFix() throws {
        let result = try runGPSFence(["decode", sample])
        #expect(result.status == 0)
        let fixes = try objects(result.stdout)
        // gpsd reports 61 distinct fix times for this log.
        #expect(fixes.count == 61)
        let first = try #require(fixes.first)
        #expect(first["time"] as? String == "2020-07-11T22:37:45.000Z")
        #expect(
            Set(first.keys) == [
                "time", "lat", "lon", "alt", "speed", "track", "mode", "quality", "sats", "hdop", "accuracy",
            ])
        // The receiver sent no track while standing still: unknown, not zero.
        #expect(first["track"] is NSNull)
        #expect((first["lat"] as? Double).map { abs($0 - 38.110494) < 1e-9 } == true)
    }

    @Test func readsStandardInputAndSkipsComments() throws {
        let capture = """
            # a comment line with a $GPRMC,000000,A,0101.000,N,00101.000,E,0,0,010124,,,A*00 inside
            $GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230324,003.1,W*61

            """
        let result = try runGPSFence(["decode", "-"], stdin: Data(capture.utf8))
        #expect(result.status == 0)
        let fixes = try objects(result.stdout)
        #expect(fixes.count == 1)
        #expect(fixes.first?["time"] as? String == "2024-03-23T12:35:19.000Z")
    }

    @Test func sentencesFlagPrintsOneObjectPerSentence() throws {
        let result = try runGPSFence(["decode", "--sentences", sample])
        #expect(result.status == 0)
        let sentences = try objects(result.stdout)
        #expect(sentences.count == 1403)
        #expect(sentences.first?["type"] as? String == "RMC")
        #expect(sentences.first?["talker"] as? String == "GN")
    }

    @Test func statsGoToStandardError() throws {
        let result = try runGPSFence(["decode", "--stats", sample])
        #expect(result.status == 0)
        #expect(result.stderr.contains("61 fixes; 1403 sentences"))
        #expect(result.stderr.contains("GSV=732"))
        #expect(try objects(result.stdout).count == 61)
    }

    @Test func unreadableFileIsExitStatusTwoWithMessage() throws {
        let result = try runGPSFence(["decode", sample, "/nonexistent/capture.nmea"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read '/nonexistent/capture.nmea'"))
        #expect(result.stdout.isEmpty, "inputs are all opened before any output")
    }

    @Test func badOptionIsExitStatusTwo() throws {
        let result = try runGPSFence(["decode", "--rollover-pivot", "yesterday", sample])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--rollover-pivot"))
    }

    @Test func helpHasAnExample() throws {
        let result = try runGPSFence(["decode", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("gpsfence decode --device /dev/ttyACM0"))
    }
}

@Suite struct DamagedCaptureTests {
    /// captures/damaged is the gym capture with junk lines, NUL and binary noise, ANSI escapes,
    /// glued and doubled `$`, sentences cut short, and copies with a wrong position under a wrong
    /// checksum: every fix must come out exactly as from the clean capture.
    @Test func damageChangesNoFix() throws {
        let clean = try runGPSFence(["decode", "captures/gym/capture.nmea"])
        let damaged = try runGPSFence(["decode", "--stats", "captures/damaged/capture.nmea"])
        #expect(clean.status == 0 && damaged.status == 0)
        #expect(clean.stdout.split(separator: "\n").count == 1300)
        #expect(damaged.stdout == clean.stdout)
        #expect(damaged.stderr.contains("433 bad checksum, 433 cut short"))
    }
}
