import Fences
import NMEA

/// `stationary` / `moving` (docs/report.md): the receiver is stationary once it has stayed slow
/// (speed below `stationarySpeed`) and within `stationaryRadius` of where the calm began, for
/// `stationary` seconds; it is moving again once it is beyond that radius, plus its own accuracy
/// estimate (capped like exits), on two consecutive usable fixes.
///
/// Speed alone never ends a stop: a parked receiver reports speeds of a metre a second and
/// position jumps of several metres from multipath, and neither should wake a fleet dashboard.
/// docs/events.md gives the reasoning.
/// What a restart must remember of the motion state (docs/running.md: no second `stationary` for a
/// receiver that was stopped and still is): whether it is stopped, and where the stop began.
public struct MotionRecord: Sendable, Equatable {
    public var stationary: Bool
    public var latitude: Double
    public var longitude: Double
    /// When the stop began, ms since 1970.
    public var since: Int64

    public init(stationary: Bool, latitude: Double, longitude: Double, since: Int64) {
        self.stationary = stationary
        self.latitude = latitude
        self.longitude = longitude
        self.since = since
    }
}

struct MotionState {
    enum Change { case stationary, moving }

    private var anchor: (lat: Double, lon: Double, time: Int64)?
    private(set) var isStationary = false
    private var outsideCount = 0

    /// The stop to remember, when the receiver is stopped (nil: nothing worth a restart).
    var record: MotionRecord? {
        guard isStationary, let anchor else { return nil }
        return MotionRecord(stationary: true, latitude: anchor.lat, longitude: anchor.lon, since: anchor.time)
    }

    mutating func restore(_ record: MotionRecord) {
        guard record.stationary else { return }
        isStationary = true
        anchor = (record.latitude, record.longitude, record.since)
        outsideCount = 0
    }

    /// The soonest this state can change, for `EventEngine.quietFixesAhead`.
    enum Outlook {
        case unchanging
        /// Not stopped: a stop is declared no sooner than this fix time (ms).
        case stopNoSoonerThan(Int64)
        /// Stopped: the stop ends no sooner than the receiver is this many metres farther from `fix`.
        case movingBeyond(Double)
    }

    /// `fix` is the last usable fix, at `now`.
    func outlook(from fix: Fix, now: Int64, settings: EventSettings) -> Outlook {
        guard let seconds = settings.stationary, seconds > 0 else { return .unchanging }
        if isStationary, let from = anchor {
            let distance = Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: fix.latitude, lon2: fix.longitude)
            return .movingBeyond(settings.stationaryRadius - distance)
        }
        // Without a calm begun, the next fix begins it at the soonest.
        return .stopNoSoonerThan((anchor?.time ?? now + 1) + Int64(seconds * 1000))
    }

    mutating func advance(_ fix: Fix, at now: Int64, settings: EventSettings) -> Change? {
        guard let seconds = settings.stationary, seconds > 0 else { return nil }
        if isStationary, let from = anchor {
            let distance = Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: fix.latitude, lon2: fix.longitude)
            let reach = settings.stationaryRadius + min(fix.accuracy ?? 0, settings.accuracyCap)
            guard distance > reach else {
                outsideCount = 0
                return nil
            }
            outsideCount += 1
            guard outsideCount >= 2 else { return nil }
            isStationary = false
            outsideCount = 0
            anchor = nil
            return .moving
        }
        // The calm begins at the first slow fix; a fast one, or one beyond the radius, starts over.
        guard (fix.speed ?? 0) < settings.stationarySpeed else {
            anchor = nil
            return nil
        }
        guard let from = anchor,
            Geodesy.haversine(lat1: from.lat, lon1: from.lon, lat2: fix.latitude, lon2: fix.longitude)
                <= settings.stationaryRadius
        else {
            anchor = (fix.latitude, fix.longitude, now)
            return nil
        }
        guard now - from.time >= Int64(seconds * 1000) else { return nil }
        isStationary = true
        return .stationary
    }
}
