import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// docs/fleet.md, "TLS": a real mosquitto whose TLS listener requires a client certificate and
/// takes its CN as the user name, the certificates made by `openssl` with a test CA.
@Suite(.serialized) struct ClientCertificateTests {
    static let gym = ["replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--json"]

    /// With `--mqtt-cert` and `--mqtt-key` every event arrives, and the broker knows the vehicle by
    /// its certificate's name; without them the broker refuses the vehicle, which keeps its events.
    @Test func aBrokerThatRequiresACertificateKnowsTheVehicleByIt() throws {
        let broker = try MosquittoBroker(tls: true, clientCertificates: ["van-7"])
        let subscriber = try broker.subscribe("fleet/#")
        let (certificate, key) = try #require(broker.clientCertificates["van-7"])
        let url = "mqtts://localhost:\(try #require(broker.tlsPort))/fleet/van-7"
        let ca = try #require(broker.caFile)
        let result = try runGPSFence(
            Self.gym + ["--mqtt", url, "--mqtt-ca", ca, "--mqtt-cert", certificate, "--mqtt-key", key])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = eventIDs(result.stdout.split(separator: "\n").map(String.init))
        #expect(printed.count == 7)
        #expect(eventIDs(subscriber.payloads("fleet/van-7/event")) == printed, "\(broker.log.suffix(2000))")
        #expect(broker.log.contains("u'van-7'"), "the CN is the user: \(broker.log.suffix(2000))")

        let refused = try runGPSFence(Self.gym + ["--mqtt", url, "--mqtt-ca", ca, "--drain-timeout", "2"])
        #expect(refused.status == 1)
        // The gym's 7 events and the error event that says the broker is unreachable.
        #expect(refused.stderr.contains(": 8 events were not delivered within 2.0 s"), "\(refused.stderr)")
        #expect(types(refused.stdout.split(separator: "\n").map(String.init)).filter { $0 == "error" }.count == 1)
        #expect(subscriber.payloads("fleet/van-7/event").count == printed.count, "nothing more arrived")
    }

    /// A key file other users may read is refused before anything starts, as a password file is;
    /// a certificate without its key, or on a plain `mqtt://` URL, too.
    @Test func badCertificateOptionsNameTheOption() throws {
        let folder = temporaryDirectory()
        let key = folder.appendingPathComponent("van.key").path
        let certificate = folder.appendingPathComponent("van.pem").path
        try "-----BEGIN PRIVATE KEY-----\n".write(toFile: key, atomically: true, encoding: .utf8)
        try "-----BEGIN CERTIFICATE-----\n".write(toFile: certificate, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key)
        for (options, named) in [
            (
                ["--mqtt", "mqtts://broker/x", "--mqtt-cert", certificate, "--mqtt-key", key],
                "--mqtt-key: '\(key)' is readable by other users"
            ),
            (
                ["--mqtt", "mqtts://broker/x", "--mqtt-cert", certificate],
                "--mqtt-cert: goes with --mqtt-cert and --mqtt-key both"
            ),
            (
                ["--mqtt", "mqtt://broker/x", "--mqtt-cert", certificate, "--mqtt-key", key],
                "--mqtt-cert: goes with an mqtts:// URL"
            ),
            (["--mqtt-cert", certificate], "--mqtt-cert goes with --mqtt URL"),
        ] {
            let result = try runGPSFence(Self.gym + options)
            #expect(result.status == 2, "\(options): \(result.stderr)")
            #expect(result.stderr.contains(named), "\(options): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
