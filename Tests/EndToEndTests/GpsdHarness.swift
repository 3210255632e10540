import Foundation
import Platform
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let gpsdProgram = "/usr/sbin/gpsd"

/// Fails loudly (never skips) when Debian's gpsd is missing: CI installs it through `.ci/run`.
func requireGpsd() throws {
    guard FileManager.default.isExecutableFile(atPath: gpsdProgram) else {
        throw HarnessError(
            "\(gpsdProgram) is missing: install Debian's gpsd (apt-get install gpsd gpsd-clients); .ci/run does")
    }
}

/// A free TCP port on 127.0.0.1 for a server a test starts, chosen below the kernel's ephemeral
/// range (`ip_local_port_range`) and checked free by binding it. A port the kernel handed out for
/// `bind(0)` and that was released is handed out again to the next outgoing connection or `bind(0)`
/// of any test running beside: a NATS node once found its route port taken that way. Below the
/// range only another pick could take it, and this process never picks a port twice.
func freeLoopbackPort() throws -> Int {
    let low = ephemeralPortsStart()
    for _ in 0..<200 {
        let port = Int.random(in: 10_000..<max(low, 10_001))
        guard PortsHandedOut.claim(port) else { continue }
        if (try? bindLoopback(port: port)) != nil { return port }
    }
    return try bindLoopback(port: 0)
}

/// The first port of the kernel's ephemeral range (32768 by default).
private func ephemeralPortsStart() -> Int {
    let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
    return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap { Int($0) } ?? 32768
}

/// The ports this process's tests have been given.
private enum PortsHandedOut {
    nonisolated(unsafe) static var ports = Set<Int>()
    static let lock = NSLock()

    static func claim(_ port: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return ports.insert(port).inserted
    }
}

/// Binds a TCP socket to 127.0.0.1:`port` (0: any), reads the port back and releases it.
private func bindLoopback(port: Int) throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: errno \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw HarnessError("bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The master side of a real pseudo-terminal that the test writes NMEA into, as a receiver would.
/// The test also keeps the slave open (raw), so that the line stays up while gpsd is down.
final class NMEAPseudoTerminal {
    let master: Int32
    let slave: Int32
    let path: String

    init() throws {
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw HarnessError("open /dev/ptmx: errno \(errno)") }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // TIOCSPTLCK and TIOCGPTN (function-like macros Swift cannot import).
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw HarnessError("pty ioctl: errno \(errno)")
        }
        path = "/dev/pts/\(number)"
        slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw HarnessError("open \(path): errno \(errno)") }
        var attributes = termios()
        tcgetattr(slave, &attributes)
        cfmakeraw(&attributes)
        tcsetattr(slave, TCSANOW, &attributes)
        // gpsd writes probes to the device, and waits for them to drain: read and drop them, as a
        // receiver ignores what it does not understand.
        let fd = master
        Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
            }
        }.start()
    }

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                Glibc.write(master, $0.baseAddress! + offset, $0.count - offset)
            }
            if written > 0 {
                offset += written
            } else if errno != EINTR && errno != EAGAIN {
                return
            } else {
                usleep(1000)
            }
        }
    }

    deinit {
        close(slave)
        close(master)
    }
}

/// A real gpsd in the foreground on 127.0.0.1:`port` (its default is loopback only; never -G),
/// reading the pseudo-terminal, stopped by pid.
final class GpsdDaemon {
    let port: Int
    let device: String
    let process = Process()
    let errors = Pipe()
    private let control: String

    init(port: Int, device: String) throws {
        try requireGpsd()
        self.port = port
        self.device = device
        control = NSTemporaryDirectory() + "gpsfence-gpsd-\(UUID().uuidString).sock"
        process.executableURL = URL(fileURLWithPath: gpsdProgram)
        process.arguments = ["-N", "-n", "-S", String(port), "-F", control, device]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func kill(_ signal: Int32 = SIGKILL) {
        guard process.isRunning else { return }
        Glibc.kill(pid, signal)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: control)
    }

    // SIGKILL: a gpsd started from the test runner inherits its blocked signal mask, SIGTERM
    // included, and would never see a gentler signal.
    deinit { kill(SIGKILL) }
}

/// A minimal gpsd client for the test's own checks (blocking socket, lines as strings).
final class ProbeClient {
    let fd: Int32
    private var pending = Data()

    init(port: Int, command: String = #"?WATCH={"enable":true,"json":true}"# + "\n", timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 {
                self.fd = fd
                break
            }
            close(fd)
            guard Date() < deadline else {
                throw HarnessError("gpsd on port \(port) did not accept connections within \(timeout) s")
            }
            usleep(50_000)
        }
        _ = command.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, or nil after `timeout` seconds.
    func nextLine(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = pending[pending.startIndex..<newline]
                pending.removeSubrange(pending.startIndex...newline)
                return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(remaining * 1000) + 1) <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    deinit { close(fd) }
}

/// The lines of a capture without its `#` comments.
func captureSentences(_ path: String) throws -> [String] {
    try String(contentsOfFile: packageRoot.appendingPathComponent(path).path, encoding: .utf8)
        .split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
}

/// Plays sentences into the pty as a receiver sends its cycles, `period` seconds apart (a cycle
/// starts at each GGA). Receiver time is in the sentences, so the pace changes nothing but the
/// test's length.
func play(_ sentences: ArraySlice<String>, into pty: NMEAPseudoTerminal, period: Double = 0.05) {
    var first = true
    for sentence in sentences {
        if sentence.dropFirst(3).hasPrefix("GGA"), !first { usleep(useconds_t(period * 1_000_000)) }
        first = false
        pty.write(sentence + "\r\n")
    }
}

/// Writes a text sentence (no position, no time) until gpsd has synced to the pty and says so with
/// a DEVICE report naming its driver: from then on every cycle written is decoded.
func warmUp(_ daemon: GpsdDaemon, _ pty: NMEAPseudoTerminal, timeout: Double = 20) throws {
    let probe = try ProbeClient(port: daemon.port)
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        pty.write("$GPTXT,01,01,02,warm up*61\r\n")
        while let line = probe.nextLine(timeout: 0.05) {
            if line.contains(#""driver":"#) && line.contains(daemon.device) { return }
        }
    }
    throw HarnessError("gpsd did not sync to \(daemon.device) within \(timeout) s")
}

extension LineCollector {
    /// Waits until `count` lines satisfy `predicate`; false after `timeout` s.
    func sees(timeout: Double, count: Int = 1, _ predicate: @escaping (String) -> Bool) -> Bool {
        wait(timeout: timeout) { lines in lines.filter(predicate).count >= count }
    }
}

/// The JSON events of `--json` output.
func events(_ lines: [String]) -> [[String: Any]] {
    lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

/// (type, fence id) of the geofence events: the part a gpsd run and a replay must agree on.
func fenceEvents(_ events: [[String: Any]]) -> [String] {
    let kinds: Set<String> = ["enter", "exit", "dwell", "visit", "approach", "cross"]
    return events.compactMap { event in
        guard let type = event["type"] as? String, kinds.contains(type) else { return nil }
        let fence = (event["fence"] as? [String: Any])?["id"].map { "\($0)" } ?? "?"
        return type + " " + fence
    }
}

/// A scripted stand-in for gpsd on 127.0.0.1 (a real TCP server on its own thread): accepts one
/// client, keeps the first line it sends (the watch), writes `script`, then holds the connection
/// until `close()`. For what a real gpsd never sends: garbage, huge lines, wrong shapes.
final class ScriptedGpsd: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var client: Int32 = -1
    private var watchLine = ""

    init(script: [UInt8]) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard ok else { throw HarnessError("scripted gpsd: bind/listen failed, errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            lock.withLock { client = connection }
            var received: [UInt8] = []
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) == 1, byte != 0x0A { received.append(byte) }
            lock.withLock { watchLine = String(decoding: received, as: UTF8.self) }
            var offset = 0
            while offset < script.count {
                let sent = script.withUnsafeBytes {
                    send(connection, $0.baseAddress! + offset, script.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent <= 0 { return }
                offset += sent
            }
        }.start()
    }

    var watch: String { lock.withLock { watchLine } }

    func close() {
        lock.withLock {
            if client >= 0 { Glibc.close(client) }
            client = -1
        }
        Glibc.close(listener)
    }
}
