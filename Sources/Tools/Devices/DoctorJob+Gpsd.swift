import NMEA
import Platform
import Receivers

extension DoctorJob {
    /// `doctor --device gpsd://...`: the checks for reading through gpsd, in the order a user
    /// fixes them: can we connect, is it gpsd (VERSION), which devices it has (DEVICES), and do
    /// its TPV reports carry fixes. Listens for twice the autobaud window (5 s by default).
    func checkGpsd(_ address: GpsdAddress, _ add: (Finding.Level, String, String?) -> Void) {
        let connection: GpsdConnection
        do {
            connection = try GpsdConnection.connect(address, timeout: 5)
            try connection.watch(GpsdConnection.Watch())
        } catch {
            let running = processes.running("gpsd").first
            add(
                .problem, "cannot connect to gpsd at \(address.endpoint): \(error.description)",
                running.map {
                    "gpsd runs (pid \($0.pid)) but not there: check its -S port, and that it listens beyond loopback (-G) if on another host"
                }
                    ?? "start it: sudo systemctl start gpsd.socket gpsd (Debian: apt install gpsd; set DEVICES in /etc/default/gpsd)"
            )
            return
        }
        defer { connection.close() }
        add(.ok, "connected to gpsd at \(address.endpoint)", nil)

        var release: String?
        var protocolVersion: String?
        var devices: [(path: String, activated: Bool, driver: String?)]?
        var tpvs = 0
        var fixes = 0
        var skipped = 0
        var lastFix: Fix?
        var closed = false
        let window = max(autobaud.window, 1) * 2
        let deadline = monotonicSeconds() + window
        while monotonicSeconds() < deadline, !closed {
            let outcome = try? connection.readLines(timeout: 0.1) { line in
                guard let report = GpsdReport(line) else {
                    if !line.isEmpty { skipped += 1 }
                    return
                }
                switch report.reportClass {
                case .version:
                    release = report.string("release")
                    protocolVersion = Self.protocolVersion(report)
                case .devices: devices = report.devices()
                case .tpv:
                    tpvs += 1
                    if let fix = report.tpv.fix {
                        fixes += 1
                        lastFix = fix
                    }
                default: break
                }
            }
            if outcome == nil || outcome == .closed { closed = true }
        }

        if let release {
            add(.ok, "gpsd \(release)" + (protocolVersion.map { " (protocol \($0))" } ?? ""), nil)
        } else {
            add(
                .problem, "no VERSION report from \(address.endpoint): this is not a gpsd, or it is stuck",
                "check what listens there: ss -ltnp | grep \(address.port)")
        }
        if closed {
            add(.problem, "gpsd closed the connection", "see gpsd's log: journalctl -u gpsd")
        }
        let listed = devices ?? []
        if listed.isEmpty {
            add(
                .problem, "gpsd has no device",
                "give it the receiver: sudo gpsdctl add /dev/ttyACM0, or DEVICES=\"/dev/ttyACM0\" (and USBAUTO=\"true\") in /etc/default/gpsd"
            )
        } else {
            let text = listed.map {
                "\($0.path) (\($0.driver ?? "driver not yet known"), \($0.activated ? "open" : "closed"))"
            }
            add(
                .ok, "gpsd has \(listed.count) device\(listed.count == 1 ? "" : "s"): " + text.joined(separator: ", "),
                nil)
            if let named = address.device, !listed.contains(where: { $0.path == named }) {
                add(
                    .problem, "\(named) is not one of gpsd's devices",
                    "name one of the devices above, or add it: sudo gpsdctl add \(named)")
            }
        }
        let seconds = Int(window.rounded())
        if tpvs == 0 {
            add(
                .problem, "no TPV report in \(seconds) s",
                "the receiver sends nothing gpsd understands yet; watch it with gpsmon or 'gpspipe -w', and check it with 'gpsfence doctor --device PATH' after stopping gpsd"
            )
        } else if let lastFix {
            var text =
                "\(tpvs) TPV reports in \(seconds) s, \(fixes) with a fix; last: \(lastFix.mode == .threeD ? "3D" : "2D") at "
                + sixDecimals(lastFix.latitude) + ", " + sixDecimals(lastFix.longitude)
            if let accuracy = lastFix.accuracy { text += ", ±\(Int(accuracy.rounded())) m" }
            add(.ok, text, nil)
        } else {
            add(
                .warning, "\(tpvs) TPV reports in \(seconds) s, none with a fix yet",
                "the receiver needs a view of the sky; a cold start can take minutes")
        }
        if skipped > 0 {
            add(.warning, "\(skipped) lines from \(address.endpoint) were not gpsd JSON reports", nil)
        }
    }

    private static func protocolVersion(_ report: GpsdReport) -> String? {
        guard let major = report.integer("proto_major") else { return nil }
        return "\(major).\(report.integer("proto_minor") ?? 0)"
    }
}

/// Six decimals (about 10 cm), without Foundation's formatting.
func sixDecimals(_ value: Double) -> String {
    let scaled = (abs(value) * 1e6).rounded()
    let whole = Int(scaled / 1e6)
    let fraction = String(Int(scaled) % 1_000_000)
    return (value < 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: 6 - fraction.count) + fraction
}
