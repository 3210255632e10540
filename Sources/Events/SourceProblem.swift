import Fences
import NMEA
import Presentation

/// A fix source that cannot be used yet, or a fact about its data people must know: an `error`
/// event, said once per distinct problem (compared as values) while the source keeps retrying.
public enum SourceProblem: Sendable, Equatable {
    /// The device cannot be opened (absent, permission denied): the serial layer's words.
    case unavailable(String)
    /// No valid NMEA at any rate tried; each attempt as "RATE (N bytes)".
    case noNMEA(path: String, tried: [String])
    /// The receiver's dates are a multiple of 1024 weeks early; they are corrected.
    case weekRollover(device: String, correction: RolloverCorrection)
    /// The receiver sends no date: its times of day take the system date.
    case noDate(device: String)
    /// gpsd cannot be reached (the socket's words); retried every `initial` seconds, doubling to `maximum`.
    case gpsdUnreachable(endpoint: String, error: String, initial: Double, maximum: Double)
    /// gpsd does not have the device asked for.
    case gpsdHasNoDevice(endpoint: String, device: String, known: [String])
    /// gpsd's own ERROR report (its `message`, when it gave one).
    case gpsdSays(endpoint: String, message: String?)
    /// gpsd sent something that is skipped (`what`), once; later ones are counted.
    case gpsdSkipped(endpoint: String, what: String)

    /// The message people and programs read.
    public var text: String {
        switch self {
        case .unavailable(let words):
            return words
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
        case .gpsdSays(let endpoint, let message):
            return "gpsd at \(endpoint) says: \(message ?? "an error")"
        case .gpsdSkipped(let endpoint, let what):
            return "gpsd at \(endpoint) sent \(what); skipped (further ones are counted, not reported)"
        }
    }
}
