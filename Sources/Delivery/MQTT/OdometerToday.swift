import Fences
import NMEA
import Presentation

/// Metres travelled since local midnight (00:00 of the last fix's day in `calendar`, the zone of
/// `--timezone`), for Home Assistant's "odometer today" sensor: steps count only once the position has moved more than its accuracy (at least 5 m)
/// from where the last step ended, so a receiver standing still adds nothing from its jitter.
struct OdometerToday {
    private var anchor: (lat: Double, lon: Double)?
    private var day: Int64?
    private(set) var metres = 0.0
    let calendar: LocalCalendar

    init(calendar: LocalCalendar = .utc) { self.calendar = calendar }

    /// Counting starts again at `fix`, adding nothing for the way to it (a jump, not a drive).
    mutating func restart(at fix: Fix) {
        anchor = (fix.latitude, fix.longitude)
    }

    mutating func add(_ fix: Fix, time: UTCTime) {
        let today = Int64(calendar.day(of: time.millisecondsSinceEpoch).daysSinceEpoch)
        if day != today {
            day = today
            metres = 0
        }
        guard let anchor else {
            self.anchor = (fix.latitude, fix.longitude)
            return
        }
        let step = Geodesy.haversine(lat1: anchor.lat, lon1: anchor.lon, lat2: fix.latitude, lon2: fix.longitude)
        guard step > max(fix.accuracy ?? 5, 5) else { return }
        metres += step
        self.anchor = (fix.latitude, fix.longitude)
    }
}
