import JSONOutput
import Platform

/// One connection to a gpsd: connect, ask for reports with `?WATCH`, then read its lines.
///
/// gpsd answers a watch with VERSION (on connect), DEVICES and WATCH, then streams reports one
/// JSON object per line (and, with `nmea`, the sentences as it received them). Lines are handed
/// out from one bounded buffer (`LineBuffer`), so reading allocates nothing per report.
public final class GpsdConnection {
    public let address: GpsdAddress
    public let socket: TCPSocket
    public let lines: LineBuffer

    /// What to ask gpsd for.
    public struct Watch: Sendable {
        /// JSON reports (TPV, DEVICE, ...).
        public var json = true
        /// The NMEA sentences as gpsd received them (for `record`).
        public var nmea = false

        public init(json: Bool = true, nmea: Bool = false) {
            self.json = json
            self.nmea = nmea
        }
    }

    /// Connects within `timeout` seconds. The device path, when the address names one, goes into
    /// the watch so that gpsd sends only that device's reports.
    public static func connect(_ address: GpsdAddress, timeout: Double = 5, maximumLine: Int = 65536)
        throws(SocketError) -> GpsdConnection
    {
        let socket = try TCPSocket.connect(host: address.host, port: address.port, timeout: timeout)
        return GpsdConnection(address: address, socket: socket, lines: LineBuffer(capacity: maximumLine))
    }

    private init(address: GpsdAddress, socket: TCPSocket, lines: LineBuffer) {
        self.address = address
        self.socket = socket
        self.lines = lines
    }

    /// The `?WATCH` command of docs/hardware.md, e.g. `?WATCH={"enable":true,"json":true,"device":"/dev/ttyACM0"}`.
    public static func watchCommand(_ watch: Watch, device: String?) -> String {
        var members = JSONLine()
        members.add("enable", true)
        if watch.json { members.add("json", true) }
        if watch.nmea { members.add("nmea", true) }
        if let device { members.add("device", device) }
        return "?WATCH=" + members.string + "\n"
    }

    /// Sends the watch.
    public func watch(_ watch: Watch) throws(SocketError) {
        try send(Self.watchCommand(watch, device: address.device))
    }

    /// Sends one command line (`?VERSION;`, `?DEVICES;`, `?WATCH=...`).
    public func send(_ command: String) throws(SocketError) {
        let bytes = Array(command.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        try socket.write(UnsafeRawBufferPointer(buffer))
    }

    public enum ReadOutcome: Sendable, Equatable {
        /// Bytes arrived; every line they completed was handed out.
        case read
        /// Nothing within the timeout.
        case timeout
        /// gpsd closed the connection.
        case closed
    }

    /// Waits up to `timeout` seconds for bytes and calls `line` for every line they complete
    /// (without CR LF; valid only during the call).
    public func readLines(timeout: Double, _ line: (UnsafeRawBufferPointer) -> Void) throws(SocketError) -> ReadOutcome
    {
        let space = lines.freeSpace()
        switch try socket.read(into: space, timeout: timeout) {
        case .timeout: return .timeout
        case .closed: return .closed
        case .data(let count):
            lines.commit(count, line)
            return .read
        }
    }

    public func close() { socket.close() }
}
