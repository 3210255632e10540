import Foundation
import Platform

/// Where a password or a token comes from when it is not on the command line, which every local
/// user can read (`ps`, /proc/PID/cmdline): a private file, the environment, or a credential
/// systemd hands the service (`LoadCredential=`).
public struct SecretSources: Sendable, Equatable {
    /// The variable that may hold the MQTT password.
    public static let mqttPasswordVariable = "GPSFENCE_MQTT_PASSWORD"

    /// `GPSFENCE_MQTT_PASSWORD`, if set.
    public var mqttPassword: String?
    /// `CREDENTIALS_DIRECTORY`, set by systemd for a unit with `LoadCredential=`.
    public var credentialsDirectory: String?

    public init(mqttPassword: String? = nil, credentialsDirectory: String? = nil) {
        self.mqttPassword = mqttPassword
        self.credentialsDirectory = credentialsDirectory
    }

    /// What this process's environment offers.
    public static var environment: SecretSources {
        let variables = ProcessInfo.processInfo.environment
        return SecretSources(
            mqttPassword: variables[mqttPasswordVariable],
            credentialsDirectory: variables["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The file a secret option names: a relative path is a credential's name when systemd gave
    /// the process credentials. The packaged units take their options from an environment file,
    /// where systemd expands neither `%d` nor `${CREDENTIALS_DIRECTORY}`; a bare name is what
    /// such a line can say.
    public func path(_ given: String) -> String {
        guard let credentialsDirectory, !given.hasPrefix("/") else { return given }
        return credentialsDirectory + "/" + given
    }

    /// The first line of the private file `given` names (see `path(_:)` and `SecretFile`).
    public func firstLine(of given: String) -> Result<String, SecretFileError> {
        SecretFile.firstLine(of: path(given))
    }
}
