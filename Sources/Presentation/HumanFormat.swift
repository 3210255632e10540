import NMEA

/// How people are shown times and measures (docs/running.md, "Time and units"): the zone of their
/// days and the units of their speeds, distances and heights. Chosen once on the command line and
/// handed to every sink and view that writes for people; JSON and the network keep UTC and SI.
public struct HumanFormat: Sendable, Equatable {
    public var calendar: LocalCalendar
    public var units: MeasurementUnits

    public init(calendar: LocalCalendar = .utc, units: MeasurementUnits = .metric) {
        self.calendar = calendar
        self.units = units
    }

    /// `2026-02-28 20:30:00-05:00`.
    public func time(_ milliseconds: Int64) -> String { calendar.text(milliseconds) }

    public func time(_ time: UTCTime) -> String { calendar.text(time) }
}
