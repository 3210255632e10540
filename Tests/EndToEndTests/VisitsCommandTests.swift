import Foundation
import Testing

@Suite struct VisitsCommandTests {
    @Test func visitsFromAReplayedGymSession() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-visits-\(UUID().uuidString).sqlite"
        ).path
        let replay = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--state", state,
        ])
        #expect(replay.status == 0)

        let json = try runGPSFence(["visits", "--state", state, "--month", "2", "--year", "2026", "--json"])
        #expect(json.status == 0)
        let report = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let fences = try #require(report["fences"] as? [[String: Any]])
        #expect(fences.count == 1)
        #expect(fences.first?["id"] as? String == "gym")
        #expect(fences.first?["visits"] as? Int == 1)
        #expect(fences.first?["total_seconds"] as? Double == 1248)
        #expect(fences.first?["days_with_visits"] as? Int == 1)
        #expect((fences.first?["per_day"] as? [Int])?[2] == 1, "the visit began on 3 February")

        let text = try runGPSFence(["visits", "--state", state, "--month", "2", "--year", "2026"])
        #expect(text.stdout.contains("Iron Temple gym [gym] — February 2026"))
        // The same words as the visit event ("stayed 20 min 48 s"), not rounded down to minutes.
        #expect(text.stdout.contains("1 visit, total 20 min 48 s, mean 20 min 48 s, 1 day with visits"))
        // Off a terminal the days carry their counts (`3*1`): the legend says how to read them.
        #expect(text.stdout.contains("a day with visits shows their count: 3*2 is two visits on the 3rd"))
        // 1 February 2026 is a Sunday: the first week has only it, in the last column.
        let week = text.stdout.split(separator: "\n").first { $0.contains(" 3*1") }
        #expect(week?.hasPrefix("   2") == true)

        let empty = try runGPSFence(["visits", "--state", state, "--month", "3", "--year", "2026"])
        #expect(empty.stdout.contains("March 2026: no visits recorded (days in UTC)."))
        // The month without visits names those with: the capture's, February 2026.
        #expect(
            empty.stdout.contains(
                "Visits were recorded in February 2026 (1 visit): gpsfence visits --month 2 --year 2026"),
            "\(empty.stdout)")
        let emptyJSON = try #require(
            jsonObject(
                try runGPSFence(["visits", "--state", state, "--month", "3", "--year", "2026", "--json"]).stdout))
        let months = try #require(emptyJSON["months_with_visits"] as? [[String: Any]], "\(emptyJSON)")
        #expect(months.count == 1)
        #expect(months.first?["year"] as? Int == 2026 && months.first?["month"] as? Int == 2, "\(months)")
    }

    @Test func missingStateFileIsExitStatusTwo() throws {
        let result = try runGPSFence(["visits", "--state", "/nonexistent/state.sqlite"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("/nonexistent/state.sqlite"))
    }
}
