import ArgumentParser
import Fences
import NMEA
import Presentation

/// The zone people read times in and count days in (docs/running.md, "Time and units"), for every
/// command that writes times for people.
struct ZoneOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Show times in ZONE (an IANA name like America/New_York) and count days and months there (default: TZ, else /etc/localtime).",
            valueName: "zone"))
    var timezone: String?

    @Flag(help: "Show times in UTC and count days and months in UTC.")
    var utc = false

    func validate() throws {
        if timezone != nil && utc { throw ValidationError(.conflict(.exclusive("--timezone", "--utc"))) }
        if let timezone, LocalCalendar(named: timezone) == nil {
            throw ValidationError(.malformed(option: "--timezone", value: timezone, wanted: .timeZone))
        }
    }

    /// The calendar chosen (after `validate`).
    var calendar: LocalCalendar {
        if utc { return .utc }
        return timezone.flatMap { LocalCalendar(named: $0) } ?? .system()
    }
}

/// The units of speeds, distances and heights people read and hear (`--units`).
struct UnitsOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Units people read and hear: metric (km/h, m, km), imperial (mph, ft, mi) or nautical (kn, m, nm); default metric.",
            valueName: "system"))
    var units: String?

    func validate() throws {
        if let units, MeasurementUnits(rawValue: units) == nil {
            throw ValidationError(
                .notAChoice(option: "--units", value: units, choices: MeasurementUnits.allCases.map(\.rawValue)))
        }
    }

    /// The units chosen (after `validate`).
    var system: MeasurementUnits { units.flatMap(MeasurementUnits.init(rawValue:)) ?? .metric }
}

/// Both: how a command that writes times and measures for people shows them.
struct HumanFormatOptions: ParsableArguments {
    @OptionGroup var zone: ZoneOptions
    @OptionGroup var units: UnitsOptions

    var format: HumanFormat { HumanFormat(calendar: zone.calendar, units: units.system) }
}
