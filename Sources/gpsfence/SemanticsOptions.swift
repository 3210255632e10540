import ArgumentParser
import Events
import Fences
import LiveLoop

/// The event semantics flags of docs/events.md, shared by `replay` and `run`.
struct SemanticsOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Time inside before a dwell event: 90, 90s, 5m (default 60 s).", valueName: "duration"),
        transform: Seconds.read)
    var dwell: Seconds?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Metres outside the boundary before an exit counts (default 10).", valueName: "metres"),
        transform: DecimalNumber.read)
    var hysteresis: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Consecutive usable fixes outside that confirm an exit (default 2).", valueName: "fixes"))
    var exitConfirm: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Fixes with a worse accuracy estimate are not used (default 100).", valueName: "metres"),
        transform: DecimalNumber.read)
    var maxAccuracy: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A fix farther from the last than this speed (and twice the receiver's own) allows is a glitch, not used (default 100).",
            valueName: "m/s"), transform: DecimalNumber.read)
    var maxSpeed: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Time without a usable fix before fix_lost (default 10 s).", valueName: "duration"),
        transform: Seconds.read)
    var stale: Seconds?

    @Flag(help: "No enter event for fences that contain the first fix.")
    var noInitial = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Approach look-ahead for fences without their own 'approach' property.", valueName: "metres"),
        transform: DecimalNumber.read)
    var approach: Double?

    @Option(
        help: ArgumentHelp(
            "The fences --approach warns of: restrictions (the vehicle breaks one), plain (no speed limit, no restriction), speed-limits, passable (restrictions the vehicle keeps), all (default restrictions,plain).",
            valueName: "kinds"))
    var approachKinds: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Emit a heartbeat event this often: 60, 5m, 1h.", valueName: "duration"),
        transform: Seconds.read)
    var heartbeat: Seconds?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Time slow and within 25 m before a stationary event; 0: no stationary/moving (default 120 s).",
            valueName: "duration"), transform: Seconds.read)
    var stationary: Seconds?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Consecutive usable fixes above a fence's speed_limit before a speeding event (default 3).",
            valueName: "fixes"))
    var speedingConfirm: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Height of the vehicle (3.2, 3.2 m, 11'6\", 11 ft 6 in): approach and enter of fences with a lower 'clearance' are flagged too_low.",
            valueName: "height"))
    var vehicleHeight: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Width of the vehicle (2.55, 8'6\"): approach and enter of fences with a lower 'maxwidth' are flagged too_wide.",
            valueName: "width"))
    var vehicleWidth: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Length of the vehicle (16.5, 54 ft): approach and enter of fences with a lower 'maxlength' are flagged too_long.",
            valueName: "length"))
    var vehicleLength: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Weight of the vehicle as loaded (12 = 12 t, 12 t, 26000 lbs, 13 st): approach and enter of fences with a lower 'maxweight' are flagged too_heavy.",
            valueName: "weight"))
    var vehicleWeight: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Load on the vehicle's heaviest axle (10 = 10 t, 10 t, 22000 lbs): approach and enter of fences with a lower 'maxaxleload' are flagged axle_too_heavy.",
            valueName: "weight"))
    var vehicleAxleLoad: String?

    @Flag(
        help:
            "The vehicle is a heavy goods vehicle: approach and enter of fences with hgv=no are flagged no_hgv, and a fence's 'maxspeed:hgv' is its speed limit."
    )
    var hgv = false

    func validate() throws {
        for (option, text, read, form) in [
            ("--vehicle-height", vehicleHeight, Self.height, .height),
            ("--vehicle-width", vehicleWidth, Self.height, .height),
            ("--vehicle-length", vehicleLength, Self.height, .height),
            ("--vehicle-weight", vehicleWeight, Self.weight, .weight),
            ("--vehicle-axle-load", vehicleAxleLoad, Self.weight, .weight),
        ] as [(String, String?, (String) -> Double?, ValueForm)] {
            if let text, read(text) == nil {
                throw ValidationError(.malformed(option: option, value: text, wanted: form))
            }
        }
        if let vehicleHeight, let metres = Self.height(vehicleHeight), metres > Self.tallestVehicle {
            throw ValidationError(
                .implausibleHeight(given: vehicleHeight, metres: metres, tallest: Self.tallestVehicle))
        }
        if let approachKinds, ApproachKinds(parsing: approachKinds) == nil {
            throw ValidationError(
                .malformed(
                    option: "--approach-kinds", value: approachKinds, wanted: .kinds(ApproachKinds.names.map(\.name))))
        }
        if let problem = settings.problem { throw ValidationError(.outOfRange(problem)) }
    }

    var settings: EventSettings {
        var settings = EventSettings()
        if let dwell { settings.dwell = dwell.value }
        if let hysteresis { settings.hysteresis = hysteresis }
        if let exitConfirm { settings.exitConfirm = exitConfirm }
        if let maxAccuracy { settings.maxAccuracy = maxAccuracy }
        if let maxSpeed { settings.maxSpeed = maxSpeed }
        if let stale { settings.stale = stale.value }
        settings.initial = !noInitial
        settings.approach = approach
        if let kinds = approachKinds.flatMap(ApproachKinds.init(parsing:)) { settings.approachKinds = kinds }
        settings.heartbeat = heartbeat?.value
        if let stationary { settings.stationary = stationary.value }
        if let speedingConfirm { settings.speedingConfirm = speedingConfirm }
        settings.vehicle = VehicleProfile(
            height: vehicleHeight.flatMap(Self.height), width: vehicleWidth.flatMap(Self.height),
            length: vehicleLength.flatMap(Self.height), weight: vehicleWeight.flatMap(Self.weight),
            axleLoad: vehicleAxleLoad.flatMap(Self.weight), hgv: hgv)
        return settings
    }

    /// The tallest a road vehicle is taken to be: above it, the number was surely meant in other
    /// units (350 for 3.5 m in centimetres, 13.5 for feet).
    static let tallestVehicle = 10.0

    /// `--vehicle-height` in metres: the forms of `Height`, with a decimal comma read as the fence
    /// imports read it (`3,5`).
    static func height(_ text: String) -> Double? {
        Height.metres(DecimalComma.point(text))
    }

    /// `--vehicle-weight` and `--vehicle-axle-load` in kilograms: the forms of `Weight`. A comma is
    /// not read as a decimal point here: `1,500 lbs` is a thousands separator as often as `7,5 t`
    /// is a decimal comma, and a weight misread by a thousand is worse than one refused.
    static func weight(_ text: String) -> Double? {
        Weight.kilograms(text)
    }
}

/// A decimal comma in a number typed on the command line (`3,5`), as the fence imports accept
/// it: a comma with digits on both sides and no point in the text becomes a point.
enum DecimalComma {
    static func point(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        guard !text.contains("."), scalars.filter({ $0 == "," }).count == 1,
            let comma = scalars.firstIndex(of: ","), comma > 0, comma + 1 < scalars.count,
            ("0"..."9").contains(scalars[comma - 1]), ("0"..."9").contains(scalars[comma + 1])
        else { return text }
        var result = scalars
        result[comma] = "."
        return String(String.UnicodeScalarView(result))
    }
}
