import Delivery
import Events
import Fences
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers
import Store
import Web

/// `gpsfence run` (docs/architecture.md, docs/running.md): a live source through the engine loop. SIGINT/SIGTERM stop it
/// cleanly (sinks flushed, the store closed), and so does SIGHUP when it runs on a terminal (the
/// terminal went away); for a service, SIGHUP, like a change of the fence file, reloads the fences: `unregistered` for the fences that are gone, `registered` for the new set, unchanged
/// fences (same id and geometry) keep their state, and a reload that fails keeps the old fences
/// and reports an `error`.
public final class RunJob {
    public struct Options {
        public var device: DeviceChoice
        public var rate: BaudRate?
        public var autobaud = Autobaud()
        /// The fence file; nil: an anchor watch alone, with no fence file.
        public var fencesPath: String?
        public var statePath: String
        public var settings = EventSettings()
        public var ringCapacity = 1024
        public var rollover = WeekRollover.live(today: currentUTCTime().date)
        /// Days of track kept in the state file (docs/report.md).
        public var keepDays = 7.0
        /// Seconds between track writes (`--track-write-interval`, docs/running.md "Power cuts").
        public var trackWriteInterval = Self.defaultTrackWriteInterval
        public static let defaultTrackWriteInterval = TrackRecorder.Settings.defaultFlushInterval
        /// `--sync`: the track to a server (docs/running.md); nil: the track stays local.
        public var sync: TrackSyncConfiguration?
        /// At stop, seconds the track sync may take to send what is queued.
        public var drainTimeout = 5.0
        /// `--anchor` and OwnTracks regions (docs/running.md, "Fence layers").
        public var layers = FenceLayerOptions()
        /// `--fences mqtt://...`: the fence set is the retained GeoJSON on this broker's topic (its
        /// `prefix`); `fencesPath` is then the URL and no file is read.
        public var brokerFences: MQTTConfiguration?
        /// Whose days the odometer counts (`--timezone`, docs/running.md "Time and units").
        public var calendar = LocalCalendar.utc
        /// What raises the latched alarm (docs/running.md, "Alarms").
        public var alarms = AlarmPolicy()
        /// Where the terminal's and the broker's answers to the alarm arrive.
        public let alarmAnswers = AlarmAnswers()
        /// `--web`: the page on a phone (docs/running.md); nil: none.
        public var web: WebSettings?

        public init(device: DeviceChoice, fencesPath: String?, statePath: String) {
            self.device = device
            self.fencesPath = fencesPath
            self.statePath = statePath
        }
    }

    public let options: Options

    public init(options: Options) { self.options = options }

    /// A regular file given as the device (a capture, usually) would be retried forever as a
    /// port that refuses termios: say what it is instead.
    static func notADevice(_ path: String, readBy command: CaptureCommand = .replay) -> InputError? {
        guard (try? FileStatus.of(path))?.kind == .regular else { return nil }
        return .notADevice(path: path, isCapture: FileKind.sniff(path: path) == .nmea, readBy: command)
    }

    /// The source the device names: a gpsd (docs/hardware.md) or a serial port.
    func makeSource() -> FixSource {
        FixSources.live(options.device, rate: options.rate, autobaud: options.autobaud, rollover: options.rollover)
    }

    /// Runs until SIGINT or SIGTERM. Bad fence or state files throw `InputError` before anything
    /// starts.
    public func run(makeSinks: (SinkContext) throws -> [EventSink]) throws {
        if case .port(let port) = options.device, let problem = Self.notADevice(port.path) {
            throw problem
        }
        returnLargeBlocksAtOnce()
        var fences = try options.brokerFences == nil ? options.fencesPath.map(FenceFile.load) ?? .none : .none
        try refuseASecondRunOnThePort()
        // Opening makes the state file (and its folder) on a first run; the claim comes before
        // anything is written to it.
        let store = try StateStore.open(options.statePath)
        // Before the claim: a `fences add --here` or a `gpsfence ack` that finds the claim may ask
        // at once (SIGUSR1 would otherwise end the run while it loads its fences).
        RunRequest.install()
        let lock = try StateLock.acquire(statePath: options.statePath, answersRequests: true)
        defer { withExtendedLifetime(lock) {} }
        var accepted: [UInt8]?
        if let broker = options.brokerFences {
            (fences, accepted) = try BrokerFences.lastGoodSet(broker, store: store, calendar: options.calendar)
        }
        let reports = ProblemReports()
        var sinks = try makeSinks(
            SinkContext(
                reportProblem: reports.reportProblem, outbox: store, inputEnds: false, statePath: options.statePath))
        sinks.append(FarFencesWarning(fences: fences))
        if let sync = options.sync, let store {
            sinks.append(try sync.sink(store: store, drainTimeout: options.drainTimeout, report: reports.reportProblem))
        }
        let source = makeSource()

        var loopConfiguration = EngineLoop.Configuration()
        loopConfiguration.syncTarget = options.sync?.target
        loopConfiguration.settings = options.settings
        loopConfiguration.ringCapacity = options.ringCapacity
        if let broker = options.brokerFences {
            let shared = sinks.compactMap { $0 as? MQTTSink }.first {
                BrokerFences.sameBroker($0.configuration, broker)
            }
            let report = reports.reportProblem
            loopConfiguration.fenceFeed = { [accepted] current, ready in
                BrokerFences(
                    configuration: broker, shared: shared?.connection, current: current, accepted: accepted,
                    ready: ready, report: report)
            }
            loopConfiguration.fencesPath = broker.target
        } else {
            loopConfiguration.reloadPath = options.fencesPath
            loopConfiguration.fencesPath = options.fencesPath
        }
        loopConfiguration.keepDays = options.keepDays
        loopConfiguration.calendar = options.calendar
        loopConfiguration.trackWriteInterval = options.trackWriteInterval
        loopConfiguration.stopsOnSignals = true
        loopConfiguration.layers = options.layers
        loopConfiguration.layers.ownsLayers = true
        loopConfiguration.alarms = options.alarms
        loopConfiguration.alarmAnswers = options.alarmAnswers
        let board = LiveBoard(
            monitoringSince: currentUTCTime().millisecondsSinceEpoch, recentTrackSeconds: options.web == nil ? 0 : 3600)
        loopConfiguration.liveBoard = board
        let channel = Self.openLiveChannel(board, statePath: options.statePath)
        channel?.start()
        defer { channel?.stop() }
        let web = try options.web.map { settings in
            try Self.startWeb(
                settings, board: board, statePath: options.statePath,
                fencesPath: options.brokerFences == nil ? options.fencesPath : nil, answers: options.alarmAnswers)
        }
        defer { web?.stop() }
        StopSignals.install(hangup: .forThisProcess)
        let loop = try EngineLoop(
            configuration: loopConfiguration, fences: fences, store: store, sinks: sinks, reports: reports)
        _ = try loop.run(source)
    }
}

extension RunJob {
    /// The local channel `status` asks (docs/running.md, "Status of a running run"); when it
    /// cannot be made, said once, and `status` reads the state file alone.
    static func openLiveChannel(_ board: LiveBoard, statePath: String) -> LiveChannel? {
        do {
            return try LiveChannel(board: board, statePath: statePath)
        } catch {
            OutputWriter.standardError.write(
                line: "gpsfence: no live channel for 'status' (\(error)); status reads the state file instead")
            return nil
        }
    }

    /// The page on a phone, listening before the engine starts: an address it cannot listen on
    /// stops the run (exit status 1) before any event.
    static func startWeb(
        _ settings: WebSettings, board: LiveBoard, statePath: String, fencesPath: String?, answers: AlarmAnswers
    ) throws -> WebServer {
        let server = WebServer(
            settings: settings, board: board, statePath: statePath, fencesPath: fencesPath, answers: answers)
        do { try server.start() } catch { throw RuntimeFailure.webServer(error) }
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        OutputWriter.standardError.write(
            line: "gpsfence: the page is at http://\(host):\(server.port ?? settings.port)/"
                + (settings.password == nil ? "" : " (HTTP basic: any user name, the password of --web-password-file)"))
        return server
    }

    /// `--fences mqtt://...` checked (docs/running.md, "Fences from the broker"); nil for a file.
    public static func brokerFences(
        _ fences: String, caFile: String?, certificateFile: String? = nil, keyFile: String? = nil,
        secrets: SecretSources = SecretSources()
    ) throws -> MQTTConfiguration? {
        try BrokerFences.configuration(
            fences: fences, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile, secrets: secrets)
    }

    /// Another gpsfence reading the same port: refused with its pid (exit status 1), before
    /// anything is opened. `TIOCEXCL` alone does not stop a second run started as root, and a run
    /// that could not open its port would retry for ever instead of saying why.
    func refuseASecondRunOnThePort() throws {
        guard case .port(let port) = options.device else { return }
        let others = ProcessTable().holders(of: port.path).holders.filter { $0.name == ProcessTable.ownName }
        guard let other = others.first else { return }
        throw RuntimeFailure.receiver(.portInUse(path: port.path, pid: other.pid))
    }
}
