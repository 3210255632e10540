import Delivery
import Fences
import Platform
import Receivers

/// An option (or an argument) the command cannot take as given, as a value: which option, the
/// value given and what it is measured against. `text` is its one rendering in words; it always
/// names the option, and the value where one was given (the argument parser names both before a
/// `number` problem, found where it reads the value). Bad usage: exit status 2.
///
/// A new check of an option adds a case here (or to one of the enums below) with the values it
/// needs, and its words to `text`; the command throws `ValidationError(.theCase(...))`.
public enum OptionProblem: Sendable {
    /// A number outside the range the option takes (the range and the value in it).
    case outOfRange(Limits.RangeProblem)
    /// A value that is not one of the option's choices.
    case notAChoice(option: String, value: String, choices: [String])
    /// An option given an empty value.
    case empty(option: String)
    /// An option given without the one it needs.
    case companionMissing(Companion)
    /// Options, or an option and what it is given, that do not go together.
    case conflict(OptionConflict)
    /// `check LAT LON`: the point is missing or not one.
    case point(PointArgumentProblem)
    /// `record --output FILE`: the capture exists, and neither `--force` nor `--append` is given.
    case captureExists(path: String)
    /// `simulate --link PATH`: something that is not a link to a pseudo-terminal is at the path.
    case linkTaken(link: String, LinkOccupant)
    /// `configure`: the sentences at the rate need more than the line's baud carries.
    case baudTooLow(BaudShortfall)
    /// A value that is not in the form the option takes.
    case malformed(option: String, value: String, wanted: ValueForm)
    /// A number the option's value reader refuses.
    case number(NumberProblem)
    /// Something the command needs that was not given.
    case missing(MissingInput)
    /// `--alarm-on`: an event kind the alarm raises itself, which cannot raise it.
    case alarmOwnEvent(kind: String)
    /// A percentage of something that must be above 0 and below 100.
    case notAPercentage(option: String, value: Double)
    /// An option that names a folder where there is none.
    case notADirectory(option: String, path: String)
    /// `--vehicle-height` read as more metres than any road vehicle is tall (as given, and read).
    case implausibleHeight(given: String, metres: Double, tallest: Double)
    /// `simulate --jam`, `--spoof`.
    case interference(InterferenceProblem)
    /// `--device`: no receiver gpsfence reads.
    case device(ReceiverAddressError)
    /// `--webhook-header`, `--sync-header`.
    case header(HTTPHeaderError)
    /// `--webhook`.
    case webhook(WebhookError)
    /// `--sync` and its options.
    case sync(TrackSyncError)
    /// `--mqtt` and its options.
    case mqtt(MQTTConfigurationError)

    var text: String {
        switch self {
        case .outOfRange(let problem): problem.description
        case .notAChoice(let option, let value, let choices):
            "\(option) must be \(Self.either(choices)), not '\(value)'"
        case .empty(let option): "\(option) must not be empty"
        case .companionMissing(let companion): companion.text
        case .conflict(let conflict): conflict.text
        case .point(let problem): problem.text
        case .captureExists(let path):
            "'\(path)' already exists; record does not overwrite a capture: --force replaces it, --append adds to it, "
                + "or choose another --output"
        case .linkTaken(let link, let occupant):
            "--link \(link): there is \(occupant.text) there; simulate replaces only a symlink to a pseudo-terminal "
                + "(one an earlier simulate left). Choose another path or remove it yourself."
        case .baudTooLow(let shortfall):
            shortfall.text + "; give fewer --sentences, a lower --rate, a higher --baud, or --raise-baud"
        case .malformed(let option, let value, let form): "\(option) wants \(form.text), not '\(value)'"
        case .number(let problem): problem.text
        case .missing(let input): input.text
        case .alarmOwnEvent(let kind): "--alarm-on: '\(kind)' is the alarm's own event, it cannot raise one"
        case .notAPercentage(let option, let value):
            "\(option) must be a percentage above 0 and below 100, not \(value)"
        case .notADirectory(let option, let path): "\(option) \(path): not a directory (make it first)"
        case .implausibleHeight(let given, let metres, let tallest):
            "--vehicle-height '\(given)' is \(Self.hundredths(metres)) m, taller than any road vehicle (at most "
                + "\(Self.hundredths(tallest)) m); "
                + (metres >= 100
                    ? "centimetres? write --vehicle-height \(Self.hundredths(metres / 100)) (metres)"
                    : "feet? write --vehicle-height \"\(Self.hundredths(metres)) ft\"")
        case .interference(let problem): problem.text
        case .device(let error): error.description
        case .header(let error): error.description
        case .webhook(let error): error.description
        case .sync(let error): error.description
        case .mqtt(let error): error.message
        }
    }

    /// A length to the centimetre, without a fraction when it has none: `4.25`, `13`.
    private static func hundredths(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func either(_ choices: [String]) -> String {
        guard let last = choices.last else { return "" }
        return choices.count == 1 ? last : choices.dropLast().joined(separator: ", ") + " or " + last
    }
}

/// The form an option's value is written in, as the refusal says it.
public enum ValueForm: Sendable, Equatable {
    /// `replay --speed`.
    case speedOrMax
    /// A calendar date.
    case date
    /// A UTC time, as ISO 8601.
    case isoTime
    /// `report --since`: a duration back from now, or a time.
    case durationOrTime
    /// `simulate --jam`.
    case jam
    /// `simulate --spoof`.
    case spoofStart
    /// `fences import --select`.
    case tagSelection
    /// `fences import --bbox`.
    case boundingBox
    /// `--anchor-at`.
    case position
    /// `--approach-kinds`: a list of these names.
    case kinds([String])
    /// A length (`--vehicle-height`, `--vehicle-width`, `--vehicle-length`).
    case height
    /// A weight (`--vehicle-weight`, `--vehicle-axle-load`).
    case weight
    /// `--timezone`.
    case timeZone

    var text: String {
        switch self {
        case .speedOrMax: "a positive number or 'max'"
        case .date: "a date as YYYY-MM-DD"
        case .isoTime: "an ISO 8601 time (2026-02-03T10:00:00Z)"
        case .durationOrTime: "a duration (90s, 30m, 2h, 7d) or a UTC time (2026-02-03T10:00:00Z)"
        case .jam: "START+DURATION in seconds from the start of the route (e.g. 60+30)"
        case .spoofStart: "START in seconds from the start of the route (e.g. 120)"
        case .tagSelection: "KEY or KEY=VALUE[,VALUE...]"
        case .boundingBox: "south,west,north,east in degrees"
        case .position: "a position as LAT,LON in degrees (e.g. 47.3769,8.5417)"
        case .kinds(let names): "one or more of \(names.joined(separator: ", ")), separated by commas"
        case .height: Height.forms
        case .weight: Weight.forms
        case .timeZone: "a time zone this system knows (an IANA name like Europe/Berlin)"
        }
    }
}

/// A number on the command line that is not read. The argument parser's words before these name
/// the option and the value (`The value 'x' is invalid for '--radius <metres>': ...`).
public enum NumberProblem: Sendable, Equatable {
    /// Not a number at all.
    case notANumber
    /// A number with a thousands separator (`example`: the same number without it).
    case thousandsSeparator(example: String)
    /// A duration whose last letter is no unit of time.
    case notAUnitOfTime(Character)

    var text: String {
        switch self {
        case .notANumber: "not a number; write it like 3.5 or 3,5"
        case .thousandsSeparator(let example):
            "a thousands separator is not read; write the number with one decimal mark and nothing between its "
                + "digits, e.g. \(example)"
        case .notAUnitOfTime(let unit): "'\(unit)' is not a unit of time; write 90, 90s, 5m, 2h or 7d"
        }
    }
}

/// `simulate --jam START+DURATION` or `--spoof START` that is not one (`given`: as given).
public enum InterferenceProblem: Error, Sendable, Equatable {
    case jamNotInForm(given: String)
    case jamStartBeforeRoute(given: String)
    case jamWithoutDuration(given: String)
    case spoofNotInForm(given: String)
    case spoofStartBeforeRoute(given: String)

    var text: String {
        switch self {
        case .jamNotInForm(let given):
            OptionProblem.malformed(option: "--jam", value: given, wanted: .jam).text
        case .jamStartBeforeRoute(let given): "--jam \(given): the start must be 0 s or later"
        case .jamWithoutDuration(let given): "--jam \(given): the duration must be more than 0 s"
        case .spoofNotInForm(let given):
            OptionProblem.malformed(option: "--spoof", value: given, wanted: .spoofStart).text
        case .spoofStartBeforeRoute(let given): "--spoof \(given): the start must be 0 s or later"
        }
    }
}

/// What a command needs and was not given.
public enum MissingInput: Sendable, Equatable {
    /// `run`, `replay`: a fence file, unless an anchor watch is kept.
    case fences
    /// `replay`: a capture to play.
    case captures
    /// `report`: captures or `--state`.
    case capturesOrState
    /// `sync`: the server.
    case syncServer
    /// `fences add`: `--here`.
    case here
    /// `configure`: a setting to change.
    case setting

    var text: String {
        switch self {
        case .fences:
            "Missing expected argument '--fences <file>' (an anchor watch, --anchor RADIUS, needs no fence file)"
        case .captures: "give at least one capture (or '-' for standard input)"
        case .capturesOrState: "give captures or --state, one of the two"
        case .syncServer: "give the server: --sync URL"
        case .here: "give --here: the fence goes at the current fix"
        case .setting: "nothing to configure: give --rate, --sentences, --baud, --integrity or --save (or --dry-run)"
        }
    }
}

/// An option that needs another one.
public enum Companion: Sendable, Equatable {
    /// `option` means something only beside `goesWith` (as the usage writes it: `--anchor RADIUS`).
    case option(String, goesWith: String)
    /// `--sync` needs `--state`, which keeps the track and the server's cursor.
    case syncNeedsState
    /// `report` of captures needs `--fences`.
    case capturesNeedFences
    /// `decode --count` counts fixes from a device; a file is decoded to its end.
    case countNeedsDevice
    /// `status --interval` is the time between redraws of `--watch`.
    case intervalNeedsWatch

    var text: String {
        switch self {
        case .option(let option, let companion): "\(option) goes with \(companion)"
        case .syncNeedsState: "--sync needs --state: the state file keeps the track and what the server has"
        case .capturesNeedFences: "--fences is needed with captures (the fence file to check them against)"
        case .countNeedsDevice: "--count is for --device; a file is decoded to its end"
        case .intervalNeedsWatch: "--interval is the time between redraws of --watch; give --watch too, or leave it out"
        }
    }
}

/// Options, or an option and its input, that exclude each other.
public enum OptionConflict: Sendable, Equatable {
    /// Two options of which one may be given.
    case exclusive(String, String)
    /// `check`: a point as LAT LON and `--points FILE` both.
    case pointAndPointsFile
    /// `check --json` with `--points`, which prints JSON Lines already.
    case jsonWithPointsFile
    /// `simulate --jam`/`--spoof` on a capture (the route as given), which is replayed as it is.
    case interferenceOnCapture(route: String)
    /// `simulate --time-scale`/`--now` on a route (as given) without times.
    case timingWithoutTimes(route: String)
    /// `replay` with `--on-escalate`: a replay sounds no alarm, so nothing escalates.
    case escalationInReplay
    /// `decode --sentences` with `--device`.
    case sentencesFromDevice
    /// `status --watch` with `--json`.
    case watchWithJSON
    /// `status --forget` with another option.
    case forgetWithOthers
    /// `configure` with a gpsd address.
    case configureThroughGpsd

    var text: String {
        switch self {
        case .exclusive(let one, let other): "\(one) and \(other) exclude each other: choose one"
        case .pointAndPointsFile: "give either LAT LON or --points FILE, not both"
        case .jsonWithPointsFile: "--json is for a single point; --points already prints JSON Lines"
        case .interferenceOnCapture(let route):
            "--jam and --spoof play on a GPX or GeoJSON route; \(route) is a capture, replayed as it is"
        case .timingWithoutTimes(let route):
            "--time-scale and --now are for a GPX with times; \(route) has none (use --speed)"
        case .escalationInReplay:
            "--alarm-escalate and --on-escalate: a replay gives the alarm's events only; nothing sounds or escalates"
        case .sentencesFromDevice: "--sentences reads files only; with --device each fix is a line"
        case .watchWithJSON: "--watch draws for people; for JSON, run 'status --json' in a loop"
        case .forgetWithOthers: "--forget changes the state file and prints one line; give it alone"
        case .configureThroughGpsd:
            "configure talks to the receiver itself, not through gpsd: give its device path"
        }
    }
}

/// `check LAT LON`: what is wrong with the point's arguments (`given`: as they were given).
public enum PointArgumentProblem: Sendable, Equatable {
    /// Neither a point nor `--points FILE`.
    case missing
    /// Not two arguments.
    case notTwo(given: [String])
    /// Two arguments, not both numbers.
    case notNumbers(given: [String])
    case latitude(Double)
    case longitude(Double)

    var text: String {
        switch self {
        case .missing: "give a point as LAT LON, or --points FILE (see gpsfence check --help)"
        case .notTwo(let given): "want exactly two numbers LAT LON, got '\(given.joined(separator: " "))'"
        case .notNumbers(let given): "LAT LON must be numbers, got '\(given.joined(separator: " "))'"
        case .latitude(let value): "latitude \(value) is out of range [-90, 90]"
        case .longitude(let value): "longitude \(value) is out of range [-180, 180]"
        }
    }
}

/// What is at a `--link` path that `simulate` does not replace.
public enum LinkOccupant: Sendable, Equatable {
    /// A symlink to something other than a pseudo-terminal (its target, as read).
    case symlink(target: String)
    /// Anything else, by its kind.
    case file(FileStatus.Kind)

    var text: String {
        switch self {
        case .symlink(let target): "a symlink to '\(target)', not to a pseudo-terminal"
        case .file(.characterDevice): "a character device"
        case .file(.blockDevice): "a block device"
        case .file(.directory): "a directory"
        case .file(.namedPipe): "a named pipe"
        case .file(.socket): "a socket"
        case .file(.regular): "a file"
        case .file(.symlink): "a symlink"
        }
    }
}

/// Sentences at a rate that need more bytes a second than a serial line carries.
public struct BaudShortfall: Sendable, Equatable {
    public let sentences: Set<String>
    /// Fixes a second.
    public let rate: Double
    public let baud: BaudRate

    public init(sentences: Set<String>, rate: Double, baud: BaudRate) {
        self.sentences = sentences
        self.rate = rate
        self.baud = baud
    }

    /// What is needed and what the line offers: `1234 bytes/s of GGA,RMC at 10.0 Hz do not fit 9600 baud (...)`.
    public var text: String {
        let budget = BaudBudget(sentences: sentences, rate: rate, baud: baud)
        return "\(Int(budget.bytesPerSecond)) bytes/s of \(sentences.sorted().joined(separator: ",")) at \(rate) Hz "
            + "do not fit \(baud) baud (\(Int(baud.bytesPerSecond)) bytes/s, 85 % of it usable)"
    }
}
