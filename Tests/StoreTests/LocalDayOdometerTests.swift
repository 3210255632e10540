import Foundation
import NMEA
import Presentation
import Testing

@testable import Events
@testable import Fences
@testable import Store

/// "Today" is the user's day: the odometer's day ends at local midnight, not UTC's.
@Suite struct LocalDayOdometerTests {
    /// 2026-03-01T04:58:00Z: 23:58 on 28 February in New York (UTC-5).
    static let start: Int64 = 1_772_341_080_000

    func fix(_ seconds: Int64, east: Double) -> Fix {
        let point = Geodesy.destination(lat: 40.7128, lon: -74.0060, bearing: 90, distance: east)
        return Fix(
            time: UTCTime(millisecondsSinceEpoch: Self.start + seconds * 1000),
            timeOfDay: TimeOfDay(milliseconds: 0), latitude: point.lat, longitude: point.lon, speed: 10,
            mode: .threeD, satellitesUsed: 9, accuracy: 4)
    }

    /// Metres driven each second from 23:58 to 00:02 local, 10 m a second: 1200 m before the
    /// local midnight (05:00Z) and 1200 m after it, on two local days; UTC's day holds all of it.
    func drive(calendar: LocalCalendar) throws -> StateStore {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gpsfence-local-day-\(UUID().uuidString).sqlite"
        ).path
        let store = try StateStore(path: path)
        var settings = TrackRecorder.Settings()
        settings.calendar = calendar
        let recorder = TrackRecorder(store: store, settings: settings)
        for second in Int64(0)...240 { try recorder.record(fix(second, east: Double(second) * 10)) }
        try recorder.flush()
        return store
    }

    @Test func theDayEndsAtLocalMidnight() throws {
        let newYork = try #require(LocalCalendar(named: "America/New_York"))
        let store = try drive(calendar: newYork)
        let february28 = Int64(CivilDate(year: 2026, month: 2, day: 28).daysSinceEpoch)
        let march1 = Int64(CivilDate(year: 2026, month: 3, day: 1).daysSinceEpoch)
        #expect(abs(try store.odometer(day: february28) - 1200) < 15)
        #expect(abs(try store.odometer(day: march1) - 1200) < 15)
    }

    @Test func inUTCTheWholeDriveIsOneDay() throws {
        let store = try drive(calendar: .utc)
        let march1 = Int64(CivilDate(year: 2026, month: 3, day: 1).daysSinceEpoch)
        #expect(abs(try store.odometer(day: march1) - 2400) < 15)
        #expect(try store.odometer(day: march1 - 1) == 0)
    }
}
