import Fences
import Foundation
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers
import Views

/// `gpsfence doctor`: everything that commonly stops a USB GPS from working on Linux, each with
/// its fix. Checks run in the order a user would fix them: the device, access to it, programs
/// that take it, then the data itself.
public struct DoctorJob {
    public struct Finding: Sendable, Equatable {
        public enum Level: String, Sendable { case ok, warning, problem }
        public var level: Level
        public var text: String
        public var fix: String?
    }

    public var address: ReceiverAddress
    public var rate: BaudRate?
    public var autobaud = Autobaud()
    public var processes = ProcessTable()
    public var discovery: () -> DeviceDiscovery = { .scan() }
    public var kernelCommandLine = "/proc/cmdline"

    /// The wall clock, ms since 1970, to say how old a running gpsfence's last fix is.
    public var now: () -> Int64 = { currentUTCTime().millisecondsSinceEpoch }

    public init(address: ReceiverAddress) { self.address = address }

    public func run(report: (Finding) -> Void) -> [Finding] {
        var findings: [Finding] = []
        func add(_ level: Finding.Level, _ text: String, fix: String? = nil) {
            let finding = Finding(level: level, text: text, fix: fix)
            findings.append(finding)
            report(finding)
        }

        // 1. Which device.
        let choice: DeviceChoice.PortChoice
        do {
            switch try DeviceChoice.resolve(address, discovery: discovery) {
            case .gpsd(let gpsd):
                checkGpsd(gpsd, add)
                return findings
            case .port(let port):
                choice = port
            }
        } catch {
            // Without a USB bus, plugging the receiver in changes nothing: say what does.
            var noBus = false
            if case .noUSBBus = error { noBus = true }
            add(
                .problem, "no device to check: \(error.description)",
                fix: noBus
                    ? "pass a USB receiver through to this machine (docker run --device /dev/ttyACM0, a virtual machine's USB passthrough), or read one elsewhere through gpsd: gpsfence doctor --device gpsd://HOST:2947"
                    : "plug the receiver in, or name it: gpsfence doctor --device /dev/ttyACM0")
            checkServices(add)
            return findings
        }
        let path = choice.path
        if let note = choice.note { add(.ok, note) }
        if let info = choice.info {
            add(
                .ok,
                "\(info.node): USB \(info.usbID ?? "?") \(info.known?.name ?? "unrecognised device"), driver \(info.driver ?? "none")",
                fix: info.known?.note)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            add(.problem, "\(path) does not exist", fix: "check the path; 'gpsfence devices' lists USB serial devices")
            checkServices(add)
            return findings
        }

        // 2. Access.
        if let permissions = DevicePermissions.inspect(path) {
            let mode = String(permissions.mode, radix: 8)
            if checkAccess(path, [.read, .write]) == nil {
                add(
                    .ok,
                    "\(path): mode \(mode), group \(permissions.groupName ?? String(permissions.groupID)); this user can open it"
                )
            } else {
                add(
                    .problem,
                    "\(path): mode \(mode), group \(permissions.groupName ?? String(permissions.groupID)); this user cannot open it",
                    fix: permissions.explanation + ": " + permissions.remedy)
            }
            if permissions.isWorldWritable {
                add(
                    .warning, "\(path) is writable by every user",
                    fix: "install udev/60-gpsfence.rules (group dialout, or uaccess for the desktop user)")
            }
        }
        checkConsole(path, add)

        // 3. Other programs.
        checkServices(add)
        let (everyHolder, unreadable) = processes.holders(of: path)
        var runs = everyHolder.filter { $0.name == ProcessTable.ownName }
        // Another gpsfence command (`record`, `simulate`) has no state file to read: say which it is.
        let others = runs.compactMap { run in
            processes.subcommand(of: run.pid).flatMap { $0 == "run" ? nil : (run, $0) }
        }
        for (other, command) in others {
            add(
                command == "simulate" ? .ok : .problem,
                command == "simulate"
                    ? "\(path) is the simulated receiver of gpsfence simulate (pid \(other.pid))"
                    : "\(path) is open in gpsfence \(command) (pid \(other.pid)); doctor leaves the port alone so as not to disturb it",
                fix: command == "simulate"
                    ? nil : "let it finish, or stop it (Ctrl-C where it runs, or kill \(other.pid)), then check again")
        }
        runs.removeAll { run in others.contains { $0.0.pid == run.pid } }
        if others.contains(where: { $0.1 != "simulate" }) { return findings }
        if !runs.isEmpty {
            // Opening the port would take it from under the run (it would log the receiver lost
            // and found again): read what the run knows from its state file instead.
            for run in runs {
                add(
                    .ok,
                    "\(path) is read by gpsfence (pid \(run.pid)); doctor leaves the port alone so as not to disturb it"
                )
                checkRun(run, add)
            }
            return findings
        }
        // The simulator writes the pseudo-terminal: not a program to stop.
        let holders = everyHolder.filter { holder in !others.contains { $0.0.pid == holder.pid } }
        if holders.isEmpty {
            add(
                .ok,
                "no other process has \(path) open"
                    + (unreadable > 0
                        ? " (\(unreadable) processes could not be inspected; run as root to see all)" : ""))
        } else {
            let viaGpsd = holders.contains { $0.name == "gpsd" }
            add(
                .problem, "\(path) is open in " + holders.map { "\($0.name) (pid \($0.pid))" }.joined(separator: ", "),
                fix: viaGpsd
                    ? "let gpsd keep it and read positions through gpsd: gpsfence run --device gpsd://localhost:2947\(path) --fences FILE (check it with: gpsfence doctor --device gpsd://); or stop gpsd: sudo systemctl stop gpsd.socket gpsd"
                    : "stop it, or, if it is a GPS daemon, read positions from it instead")
        }

        // 4. The data.
        checkData(path, add)
        return findings
    }

    /// What a running gpsfence knows about the receiver, from the state file its command line
    /// names (or the default one).
    private func checkRun(_ run: ProcessTable.Process, _ add: (Finding.Level, String, String?) -> Void) {
        let statePath = processes.statePath(of: run.pid) ?? StateLocation.defaultPath
        let status: StatusReport
        do {
            status = try StatusReport.read(statePath: statePath, now: now())
        } catch {
            add(.warning, "cannot read the state of gpsfence (pid \(run.pid)) at \(statePath): \(error)", nil)
            return
        }
        let receiver = status.receiver
        let device = receiver.device.map { $0 + (receiver.detail.map { " " + $0 } ?? "") } ?? "no receiver yet"
        add(.ok, "its state file \(statePath): \(status.running ? "monitoring" : "not updated lately"), \(device)", nil)
        if let fixWall = receiver.lastFixWall, let lat = receiver.lastLat, let lon = receiver.lastLon {
            let age = HumanText.duration(Double(max(0, status.now - fixWall)) / 1000)
            add(.ok, "its last fix: \(sixDecimals(lat)), \(sixDecimals(lon)), \(age) ago", nil)
        } else {
            add(
                .warning, "it has no fix yet",
                "the receiver needs a view of the sky; 'gpsfence status' shows when the first fix comes")
        }
    }

    private func checkServices(_ add: (Finding.Level, String, String?) -> Void) {
        if let modemManager = processes.running("ModemManager").first {
            add(
                .warning,
                "ModemManager is running (pid \(modemManager.pid)); it probes new serial ports with AT commands and can hold a GPS for seconds after plug-in",
                "install udev/60-gpsfence.rules (it sets ID_MM_DEVICE_IGNORE), or: sudo systemctl disable --now ModemManager"
            )
        } else {
            add(.ok, "ModemManager is not running", nil)
        }
        if let gpsd = processes.running("gpsd").first {
            add(
                .warning, "gpsd is running (pid \(gpsd.pid)); it opens USB GPS receivers on plug-in",
                "share the receiver with gpsd: gpsfence run --device gpsd:// ...; or stop it: sudo systemctl stop gpsd.socket gpsd (and 'disable' them to keep it so)"
            )
        } else {
            add(.ok, "gpsd is not running", nil)
        }
    }

    private func checkConsole(_ path: String, _ add: (Finding.Level, String, String?) -> Void) {
        guard let bytes = try? readWholeFile(kernelCommandLine) else { return }
        let commandLine = String(decoding: bytes, as: UTF8.self)
        let name = URL(fileURLWithPath: resolvePath(path)).lastPathComponent
        if Self.kernelConsoleUses(name, commandLine: commandLine) {
            add(
                .problem, "the kernel console runs on \(name): a login prompt and boot messages share the GPS's UART",
                "Raspberry Pi: sudo raspi-config -> Interface Options -> Serial Port: login shell NO, hardware YES; then reboot"
            )
        }
    }

    /// Whether a `console=` argument of the kernel command line names the device (`serial0` is the
    /// Raspberry Pi's alias for its primary UART, ttyAMA0 or ttyS0).
    public static func kernelConsoleUses(_ name: String, commandLine: String) -> Bool {
        let consoles = commandLine.split(whereSeparator: { $0 == " " || $0 == "\n" }).filter {
            $0.hasPrefix("console=")
        }
        .map { $0.dropFirst("console=".count).split(separator: ",").first.map(String.init) ?? "" }
        return consoles.contains { $0 == name || ($0 == "serial0" && ["ttyAMA0", "ttyS0"].contains(name)) }
    }

    private func checkData(_ path: String, _ add: (Finding.Level, String, String?) -> Void) {
        let receiver: ReceiverPort
        do {
            // The doctor hunts from scratch: a remembered rate could hide what is wrong now.
            switch try ReceiverPort.open(path, rate: rate, autobaud: autobaud, memory: nil) {
            case .opened(let opened): receiver = opened
            case .stopped: return
            case .noNMEA(let attempts):
                let tried = attempts.map {
                    "\($0.rate): \($0.bytes) bytes, \($0.checksummedSentences) good sentences, \($0.ending)"
                }
                if attempts.allSatisfy({ $0.bytes == 0 }) {
                    add(
                        .problem, "no bytes at all from \(path) at any rate",
                        "check the receiver has power and its TX reaches our RX; a module may be set to binary output (u-blox UBX: enable NMEA on the port with u-center)"
                    )
                } else {
                    add(
                        .problem, "bytes arrive but no valid NMEA at any rate (\(tried.joined(separator: "; ")))",
                        "the receiver may send a binary protocol (SiRF, UBX) or use a rate outside \(BaudRate.huntOrder.map(\.description).joined(separator: ", ")); try --baud"
                    )
                }
                return
            }
        } catch {
            add(.problem, "cannot open \(path): \(error.description)", nil)
            return
        }
        defer { receiver.close() }
        let port = receiver.port
        let kind = receiver.kind
        do {
            if receiver.rateSource == .autobaud {
                let tried = receiver.attempts.map {
                    "\($0.rate): \($0.bytes) bytes, \($0.checksummedSentences) good sentences, \($0.ending)"
                }
                add(
                    .ok,
                    "valid NMEA at \(receiver.rate.map(\.description) ?? "?") baud (\(tried.joined(separator: "; ")))",
                    nil)
            } else {
                let window = max(autobaud.window, 1)
                let framer = Framer()
                var bytes = 0
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
                defer { buffer.deallocate() }
                let deadline = monotonicSeconds() + window
                while monotonicSeconds() < deadline {
                    if case .data(let count) = try port.read(into: buffer, timeout: 0.1) {
                        bytes += count
                        framer.push(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) { _ in }
                    }
                }
                let counters = framer.counters
                let place =
                    kind == .cdcACM
                    ? "(CDC-ACM, no baud rate)" : "at \(rate.map(\.description) ?? "the current rate") baud"
                if counters.sentences > counters.withoutChecksum {
                    add(
                        .ok,
                        "valid NMEA \(place): \(counters.sentences) sentences, \(counters.badChecksum) bad checksums in \(bytes) bytes",
                        nil)
                } else {
                    add(
                        .problem,
                        "no valid NMEA \(place) in \(Int(window)) s (\(bytes) bytes, \(counters.badChecksum) bad checksums)",
                        kind == .cdcACM ? "the receiver may be in a binary mode, or still starting" : "try --baud auto")
                }
            }
            try checkIdentity(port, add)
        } catch {
            add(.problem, "reading \(path) failed: \(error)", nil)
        }
    }

    /// Asks the receiver who it is: UBX-MON-VER and `$PMTK605` are queries, they change nothing.
    private func checkIdentity(_ port: SerialPort, _ add: (Finding.Level, String, String?) -> Void) throws(SerialError)
    {
        if let identity = try ReceiverConversation(port: port).identify(seconds: 2) {
            add(
                .ok,
                "receiver: \(identity.description) (answered \(identity.query)); gpsfence configure can set its rate, sentences and baud",
                nil)
        } else {
            add(
                .ok,
                "the receiver did not answer UBX-MON-VER or $PMTK605: not a u-blox or MediaTek part, or its input line is not connected; gpsfence configure cannot set it up",
                nil)
        }
    }
}
