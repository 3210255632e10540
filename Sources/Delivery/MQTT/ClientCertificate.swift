import Foundation
import Platform

/// `--mqtt-cert FILE --mqtt-key FILE`: the certificate (PEM) gpsfence shows an `mqtts://` broker
/// that asks for one, and its private key (PEM, unencrypted), which libmosquitto reads at each
/// connection. The key is a secret: its file must be private, as a password file must.
public struct ClientCertificate: Sendable, Equatable {
    public var certificateFile: String
    public var keyFile: String

    struct Problem: Error {
        var option: String
        var problem: MQTTProblem
    }

    /// Both files named, an `mqtts://` URL, the certificate readable, the key a private file (a
    /// relative key file is a systemd credential's name when `CREDENTIALS_DIRECTORY` is set).
    static func parse(certificateFile: String?, keyFile: String?, tls: Bool, secrets: SecretSources) throws(Problem)
        -> ClientCertificate
    {
        guard let certificateFile, let keyFile else {
            throw Problem(
                option: certificateFile == nil ? "--mqtt-key" : "--mqtt-cert",
                problem: .certificateAndKey)
        }
        guard tls else { throw Problem(option: "--mqtt-cert", problem: .needsTLS) }
        guard FileManager.default.isReadableFile(atPath: certificateFile),
            FileManager.default.contents(atPath: certificateFile) != nil
        else { throw Problem(option: "--mqtt-cert \(certificateFile)", problem: .unreadable) }
        let keyPath = secrets.path(keyFile)
        // Read only to check that it is a private regular file; libmosquitto reads the key itself.
        if case .failure(let error) = SecretFile.firstLine(of: keyPath) {
            throw Problem(option: "--mqtt-key", problem: .secret(error))
        }
        return ClientCertificate(certificateFile: certificateFile, keyFile: keyPath)
    }
}
