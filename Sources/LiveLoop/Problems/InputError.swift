import JSONInput
import JSONOutput
import Platform
import Presentation
import Store

/// Bad input or usage (exit status 2, docs/running.md) as a value: what the user gave, the file
/// and the place in it where there is one, and what is wrong with it. `description` is its one
/// rendering in words, said where the command ends; no code looks at those words.
public enum InputError: Error, CustomStringConvertible, Sendable {
    /// An option the command cannot take as given (out of its bounds, without its companion, with
    /// one it excludes): no file is at fault, and the words name the options.
    case option(OptionProblem)
    /// A file the user named cannot be opened or read (nil: no reason to give).
    case unreadable(path: String, cause: FileFailure?)
    /// A route for `simulate` cannot be read.
    case unreadableRoute(path: String, cause: FileFailure)
    /// A file the user asked for cannot be created or written.
    case unwritable(path: String, cause: FileFailure)
    /// A file the user asked for cannot be created (Platform's atomic replace failed at its first step).
    case uncreatable(ReplaceError)
    /// No folder could be made in the temporary folder `base` for a replay's outbox.
    case noTemporaryFolder(base: String, cause: FileFailure)
    /// A file of another kind than the one read where it was given (a GPX track to `replay`, a
    /// KML file to `--fences`): said with what it is and what to do with it.
    case wrongKind(path: String, kind: FileKind, givenAs: FileRole)
    /// A capture in which no NMEA sentence was found at all; `bytes`: how much it holds.
    case noNMEA(path: String, bytes: UInt64)
    /// A regular file given as `--device` (`isCapture`: one that holds NMEA), and the command that
    /// reads a capture in its stead.
    case notADevice(path: String, isCapture: Bool, readBy: CaptureCommand)
    /// A route for `simulate` holds something it cannot follow: the file, where in it when that
    /// is known, and what.
    case route(path: String, at: FilePlace?, RouteProblem)
    /// The fence file a command is to change is not one it can change.
    case fenceFile(path: String, FenceFileShortfall)
    /// The state file does not hold what the command needs.
    case stateFile(path: String, StateFileShortfall)
    /// The state file cannot be opened or read as one (the store's error names it).
    case unusableState(StoreError)

    /// The problem in words: what and where.
    public var description: String {
        switch self {
        case .option(let problem): problem.text
        case .unreadable(let path, let cause): "cannot read '\(path)'" + (cause.map { ": \($0.text)" } ?? "")
        case .unreadableRoute(let path, let cause): "cannot read route '\(path)': \(cause.text)"
        case .unwritable(let path, let cause): "cannot write '\(path)': \(cause.text)"
        case .uncreatable(let error): "cannot create '\(error.path)': \(error.reason)"
        case .noTemporaryFolder(let base, let cause):
            "cannot make a folder for the replay's outbox in \(base): \(cause.text) (give --state FILE)"
        case .wrongKind(let path, let kind, let role): kind.words(path, givenAs: role)
        case .noNMEA(let path, let bytes):
            bytes == 0
                ? "'\(path)' is empty: no NMEA sentences to play (captures are made with 'gpsfence record')"
                : "no NMEA sentences in '\(path)' (\(bytes) bytes): a capture holds lines such as "
                    + "$GPRMC,...*hh (made with 'gpsfence record')"
        case .notADevice(let path, let isCapture, let command):
            "--device \(path): this is \(isCapture ? "an NMEA capture" : "a file"), not a device: "
                + command.advice(path) + "; 'gpsfence devices' lists the receivers"
        case .route(let path, let place, let problem):
            "\(path): " + (place.map { $0.text(problem.text) } ?? problem.text)
        case .fenceFile(let path, let shortfall): shortfall.text(path)
        case .stateFile(let path, let shortfall): shortfall.text(path)
        case .unusableState(let error): error.description
        }
    }

    /// The same words as `description`.
    public var message: String { description }
}

/// Where a file is given: what it is read as.
public enum FileRole: Sendable {
    /// An NMEA capture (`replay`, `decode`, `report`).
    case capture
    /// A fence file (`--fences`).
    case fences
    /// A route for `simulate`.
    case route
}

/// The command that reads a capture, as a regular file given as a device is told.
public enum CaptureCommand: Sendable {
    case replay
    case decode

    func advice(_ path: String) -> String {
        switch self {
        case .replay: "play a capture with 'gpsfence replay \(path) --fences FENCES'"
        case .decode: "decode a capture with 'gpsfence decode \(path)'"
        }
    }
}

/// Where in a file a problem is.
public enum FilePlace: Sendable, Equatable {
    /// The nth point of a route (from 1).
    case point(Int)
    /// A JSON text that does not parse, at this line and column.
    case jsonSyntax(line: Int, column: Int)
    /// A member of a JSON document (`place`, as `features[2].geometry`) at its line and column.
    case member(String, line: Int, column: Int)

    func text(_ problem: String) -> String {
        switch self {
        case .point(let number): "point \(number): \(problem)"
        case .jsonSyntax(let line, let column): "malformed JSON at line \(line), column \(column): \(problem)"
        case .member(let place, let line, let column): "\(place) (line \(line), column \(column)): \(problem)"
        }
    }
}

/// What is wrong in a route file for `simulate` (a GPX track, a GeoJSON line, a capture).
public enum RouteProblem: Sendable, Equatable {
    /// GPX: a point's tag (`trkpt`, `rtept`) without its `>`.
    case unclosedTag(tag: String)
    /// GPX: a point's tag without its closing tag.
    case noClosingTag(tag: String)
    /// GPX: `lat` missing, not a number, or out of range.
    case latitude
    /// GPX: `lon` missing, not a number, or out of range.
    case longitude
    /// GPX: `<ele>` that is not a number (as written).
    case elevation(given: String)
    /// GPX: `<time>` that is not an ISO 8601 time (as written).
    case time(given: String)
    /// JSON that does not parse (where: `FilePlace.jsonSyntax`).
    case jsonSyntax(JSONSyntaxError)
    /// GeoJSON: something other than an object at the top level.
    case notAnObject
    /// GeoJSON: no LineString or MultiLineString to follow.
    case noLine
    /// GeoJSON: a member that is not the shape GeoJSON wants there.
    case shape(GeoJSONShape)
    /// GeoJSON: a position off the globe.
    case positionOutOfRange(longitude: Double, latitude: Double)
    /// Neither GPX, GeoJSON, nor a capture with timed sentences.
    case unknownFormat
    case noPoints

    var text: String {
        switch self {
        case .unclosedTag(let tag): "<\(tag)> is not closed"
        case .noClosingTag(let tag): "no </\(tag)>"
        case .latitude: "lat must be a number from -90 to 90"
        case .longitude: "lon must be a number from -180 to 180"
        case .elevation(let given): "<ele> '\(given)' is not a number"
        case .time(let given): "<time> '\(given)' is not an ISO 8601 time"
        case .jsonSyntax(let error): error.problem.description
        case .notAnObject: "a GeoJSON object is expected at the top level"
        case .noLine: "no LineString to follow (a route wants a LineString or MultiLineString)"
        case .shape(let shape): shape.text
        case .positionOutOfRange(let longitude, let latitude): "[\(longitude), \(latitude)] is out of range"
        case .unknownFormat: "not a GPX track, a GeoJSON LineString, or an NMEA capture with timed sentences"
        case .noPoints: "the route has no points"
        }
    }
}

/// The shape GeoJSON wants for a member of a route, where it found another.
public enum GeoJSONShape: Sendable, Equatable {
    case linesArray
    case featuresArray
    case featureObject
    case positionsArray
    case position

    var text: String {
        switch self {
        case .linesArray: "\"coordinates\" is an array of lines"
        case .featuresArray: "\"features\" is an array of Features"
        case .featureObject: "a feature is an object"
        case .positionsArray: "a line is an array of positions"
        case .position: "a position is [lon, lat] or [lon, lat, alt]"
        }
    }
}

/// Why a fence file cannot be changed by `fences add`.
public enum FenceFileShortfall: Sendable, Equatable {
    /// It is not a regular file (a device, a folder): only a fence file is written.
    case notRegular
    /// It is not a GeoJSON FeatureCollection to add a feature to.
    case notAFeatureCollection
    /// It holds a fence with this id already.
    case idTaken(String)

    func text(_ path: String) -> String {
        switch self {
        case .notRegular: "'\(path)' is not a regular file: only a fence file is written"
        case .notAFeatureCollection:
            "'\(path)' is not a GeoJSON FeatureCollection: 'fences add' adds a feature to "
                + "the 'features' array of one (or a line to a CSV fence file)"
        case .idTaken(let id): "'\(path)' already has a fence with id \(JSONLine.quoted(id))"
        }
    }
}

/// What a state file that is there lacks for a command.
public enum StateFileShortfall: Sendable, Equatable {
    /// No fix was recorded yet (`fences add --here`).
    case noFix
    /// The last fix is `age` seconds old, too old to be where the user stands.
    case staleFix(age: Double)
    /// It names no fence file, and none was given.
    case noFenceFile
    /// `status --forget TARGET`: no target, or more than one, matches (`known`: the targets held,
    /// as they may be shown).
    case noSuchTarget(String, ambiguous: Bool, known: [String])
    /// `status --forget TARGET`: the target is one the last run delivers to.
    case targetOfLastRun(String)

    func text(_ path: String) -> String {
        switch self {
        case .noFix: "the state file '\(path)' holds no fix yet: is 'gpsfence run' receiving?"
        case .staleFix(let age):
            "the last fix in '\(path)' is \(HumanText.duration(age)) old, not where you "
                + "stand: is 'gpsfence run' still running and receiving?"
        case .noFenceFile: "the state file '\(path)' names no fence file: give it with --fences FILE"
        case .noSuchTarget(let target, let ambiguous, let known):
            "--forget: \(ambiguous ? "more than one target matches" : "no target") '\(target)' in \(path); "
                + (known.isEmpty ? "it holds none" : "it holds " + known.map { "'\($0)'" }.joined(separator: ", "))
        case .targetOfLastRun(let target):
            "--forget: '\(target)' is a target of the last run, which delivers what waits for it when it runs "
                + "again; only previous targets are forgotten"
        }
    }
}
