import Fences
import NMEA
import Platform
import Presentation

/// A fix source that cannot be used yet, or a fact about its data people must know: an `error`
/// event, said once per distinct problem (compared as values) while the source keeps retrying.
public enum SourceProblem: Sendable, Equatable {
    /// The device cannot be opened (absent, permission denied).
    case unavailable(SerialError)
    /// No valid NMEA at any rate tried; each attempt as "RATE (N bytes)".
    case noNMEA(path: String, tried: [String])
    /// The receiver's dates are a multiple of 1024 weeks early; they are corrected.
    case weekRollover(device: String, correction: RolloverCorrection)
    /// The receiver sends no date: its times of day take the system date.
    case noDate(device: String)
    /// gpsd cannot be reached; retried every `initial` seconds, doubling to `maximum`.
    case gpsdUnreachable(endpoint: String, error: CaughtError, initial: Double, maximum: Double)
    /// gpsd does not have the device asked for.
    case gpsdHasNoDevice(endpoint: String, device: String, known: [String])
    /// gpsd's own ERROR report (its `message`, when it gave one).
    case gpsdSays(endpoint: String, said: String?)
    /// gpsd sent a line that is skipped, said once; later ones are counted.
    case gpsdSkipped(endpoint: String, GpsdSkippedLine)

    /// The message people and programs read.
    public var text: String {
        switch self {
        case .unavailable(let error):
            return error.description
        case .noNMEA(let path, let tried):
            return "\(path): no valid NMEA at any rate; tried \(tried.joined(separator: ", "))"
        case .weekRollover(let device, let correction):
            return "\(device) reports dates \(correction.periods * 1024) weeks early (GPS week rollover: "
                + "\(correction.reported) is taken as \(correction.corrected)); its dates are corrected"
        case .noDate(let device):
            return "\(device) sends no date (GGA only, or no RMC/ZDA yet); its times of day take the system date"
        case .gpsdUnreachable(let endpoint, let error, let initial, let maximum):
            return "gpsd at \(endpoint): \(error); retrying (every \(HumanText.duration(initial)), doubling to "
                + "\(HumanText.duration(maximum)))"
        case .gpsdHasNoDevice(let endpoint, let device, let known):
            return "gpsd at \(endpoint) has no device \(device) (its devices: "
                + "\(known.isEmpty ? "none" : known.joined(separator: ", ")))"
        case .gpsdSays(let endpoint, let said):
            return "gpsd at \(endpoint) says: \(said ?? "an error")"
        case .gpsdSkipped(let endpoint, let line):
            return "gpsd at \(endpoint) sent \(line.text); skipped (further ones are counted, not reported)"
        }
    }
}

/// A line from gpsd that is not read.
public enum GpsdSkippedLine: Sendable, Equatable {
    case notAJSONReport
    /// Longer than the most a line may hold, in bytes.
    case longerThan(bytes: Int)

    var text: String {
        switch self {
        case .notAJSONReport: "a line that is not a JSON report"
        case .longerThan(let bytes): "a line longer than \(bytes) bytes"
        }
    }
}
