import Fences
import Platform
import Receivers

/// An option (or an argument) the command cannot take as given, as a value: which option, the
/// value given and what it is measured against. `text` is its one rendering in words; it always
/// names the option, and the value where one was given. Bad usage: exit status 2.
public enum OptionProblem: Sendable, Equatable {
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
        }
    }

    /// `a`, `a or b`, `a, b or c`.
    private static func either(_ choices: [String]) -> String {
        guard let last = choices.last else { return "" }
        return choices.count == 1 ? last : choices.dropLast().joined(separator: ", ") + " or " + last
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

    var text: String {
        switch self {
        case .option(let option, let companion): "\(option) goes with \(companion)"
        case .syncNeedsState: "--sync needs --state: the state file keeps the track and what the server has"
        case .capturesNeedFences: "--fences is needed with captures (the fence file to check them against)"
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

    var text: String {
        switch self {
        case .exclusive(let one, let other): "\(one) and \(other) exclude each other: choose one"
        case .pointAndPointsFile: "give either LAT LON or --points FILE, not both"
        case .jsonWithPointsFile: "--json is for a single point; --points already prints JSON Lines"
        case .interferenceOnCapture(let route):
            "--jam and --spoof play on a GPX or GeoJSON route; \(route) is a capture, replayed as it is"
        case .timingWithoutTimes(let route):
            "--time-scale and --now are for a GPX with times; \(route) has none (use --speed)"
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
