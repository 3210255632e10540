import Alerts
import Geofence
import NMEA
import Serial
import Store

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

    /// The source the device names: a gpsd (docs/hardware.md) or a serial port.
    func makeSource() -> FixSource {
        switch options.device {
        case .gpsd(let address):
            return GpsdFixSource(GpsdFixSource.Configuration(address: address))
        case .port(let port):
            var configuration = Reader.Configuration(path: port.path, rate: options.rate)
            configuration.autobaud = options.autobaud
            configuration.memory = StateLocation.baudMemory
            return SerialFixSource(configuration, rollover: options.rollover)
        }
    }

    /// Runs until SIGINT or SIGTERM. Bad fence or state files throw `InputError` before anything
    /// starts.
    public func run(makeSinks: (SinkContext) throws -> [EventSink]) throws {
        let fences = try FenceFile.load(options.fencesPath)
        let store = try StateStore.open(options.statePath)
        let reports = ProblemReports()
        let sinks = try makeSinks(
            SinkContext(report: reports.report, outbox: store, inputEnds: false, statePath: options.statePath))
        let source = makeSource()

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
