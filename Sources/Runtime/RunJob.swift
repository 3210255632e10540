import Alerts
import Geofence
import NMEA
import Serial
import Store

#if canImport(Glibc)
    import Glibc
#endif

/// `gpsfence run` (SPEC §2, §9): a live source through the engine loop. SIGINT/SIGTERM stop it
/// cleanly (sinks flushed, the store closed); SIGHUP, or a change of the fence file, reloads the
/// fences: `unregistered` for the fences that are gone, `registered` for the new set, unchanged
/// fences (same id and geometry) keep their state, and a reload that fails keeps the old fences
/// and reports an `error`.
public final class RunJob {
    public struct Options {
        public var device: DeviceChoice
        public var rate: BaudRate?
        public var autobaud = Autobaud()
        public var fencesPath: String
        public var statePath: String
        public var settings = EventSettings()
        public var ringCapacity = 1024
        public var rollover = WeekRollover.live(today: currentUTCTime().date)
        /// Days of track kept in the state file (SPEC §14).
        public var keepDays = 7.0

        public init(device: DeviceChoice, fencesPath: String, statePath: String) {
            self.device = device
            self.fencesPath = fencesPath
            self.statePath = statePath
        }
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// A regular file given as the device (a capture, usually) would be retried forever as a
    /// port that refuses termios: say what it is instead.
    static func notADevice(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let what = FileKind.sniff(path: path) == .nmea ? "an NMEA capture" : "a file"
        return "--device \(path): this is \(what), not a device: play a capture with "
            + "'gpsfence replay \(path) --fences FENCES'; 'gpsfence devices' lists the receivers"
    }

    /// The source the device string names: a gpsd (`gpsd://...`, SPEC §12) or a serial port.
    func makeSource() throws -> FixSource {
        if GpsdAddress.isGpsd(options.device.path) {
            return GpsdFixSource(GpsdFixSource.Configuration(address: try gpsdAddress(options.device.path)))
        }
        var configuration = Reader.Configuration(path: options.device.path, rate: options.rate)
        configuration.autobaud = options.autobaud
        configuration.memory = StateLocation.baudMemory
        return SerialFixSource(configuration, rollover: options.rollover)
    }

    /// Runs until SIGINT or SIGTERM. Bad fence or state files throw `InputError` before anything
    /// starts.
    public func run(makeSinks: (SinkContext) throws -> [EventSink]) throws {
        if GpsdAddress.isGpsd(options.device.path) { _ = try gpsdAddress(options.device.path) }
        if let problem = Self.notADevice(options.device.path) { throw InputError(message: problem) }
        let fences = try FenceFile.load(options.fencesPath)
        let store = try StateStore.open(options.statePath)
        let reports = ProblemReports()
        let sinks =
            try makeSinks(
                SinkContext(report: reports.report, outbox: store, inputEnds: false, statePath: options.statePath))
            + [FarFencesWarning(fences: fences)]
        let source = try makeSource()

        var loopConfiguration = EngineLoop.Configuration()
        loopConfiguration.settings = options.settings
        loopConfiguration.ringCapacity = options.ringCapacity
        loopConfiguration.reloadPath = options.fencesPath
        loopConfiguration.fencesPath = options.fencesPath
        loopConfiguration.keepDays = options.keepDays
        loopConfiguration.stopsOnSignals = true
        StopSignals.install()
        let loop = try EngineLoop(
            configuration: loopConfiguration, fences: fences, store: store, sinks: sinks, reports: reports)
        _ = try loop.run(source)
    }
}

/// Parses `gpsd://...`; a malformed address is bad usage (exit status 2).
func gpsdAddress(_ argument: String) throws -> GpsdAddress {
    switch GpsdAddress.parse(argument) {
    case .success(let address): return address
    case .failure(let error): throw InputError(message: error.description)
    }
}
