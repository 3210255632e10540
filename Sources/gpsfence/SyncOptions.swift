import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Presentation
import Tools

/// `--sync URL` and its options (docs/running.md, "Track sync"), for `run`, `replay` and `sync`.
struct SyncOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Send the track to this http(s) server in batches, each acknowledged by a 2xx before the next; resumes after a restart (docs/running.md).",
            valueName: "url"))
    var sync: String?

    @Option(
        help: ArgumentHelp("Body format: json (docs/formats.md) or osmand (Traccar).", valueName: "format"))
    var syncFormat = "json"

    @Option(help: ArgumentHelp("The device name the server sees (default: the host name).", valueName: "id"))
    var syncId: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Points per request at most (json).", valueName: "count"))
    var syncBatch = 100

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Send once this many points are queued (1: as they come).", valueName: "count"))
    var syncThreshold = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Send whatever is queued at least this often, below the threshold too.", valueName: "seconds"),
        transform: DecimalNumber.read)
    var syncInterval: Double?

    @Option(
        help: ArgumentHelp(
            "An extra request header, 'NAME: VALUE', or 'NAME: @FILE' to read the value from FILE (kept out of the process list). Repeatable.",
            valueName: "header"))
    var syncHeader: [String] = []

    func validate() throws {
        if sync == nil {
            let given = [
                (syncFormat != "json", "--sync-format"), (syncId != nil, "--sync-id"),
                (syncBatch != 100, "--sync-batch"),
                (syncThreshold != 1, "--sync-threshold"), (syncInterval != nil, "--sync-interval"),
                (!syncHeader.isEmpty, "--sync-header"),
            ]
            if let option = given.first(where: \.0) {
                throw ValidationError(.companionMissing(.option(option.1, goesWith: "--sync")))
            }
            return
        }
        do { _ = try configuration() } catch let error as TrackSyncError {
            throw ValidationError(.sync(error))
        } catch let error as HTTPHeaderError {
            throw ValidationError(.header(error))
        }
    }

    /// The checked configuration (header files read); nil without `--sync`.
    func configuration() throws -> TrackSyncConfiguration? {
        guard let sync else { return nil }
        ProcessArguments.hidePassword(of: sync)
        var configuration = try TrackSyncConfiguration(
            target: sync, device: syncId ?? TrackSyncConfiguration.defaultDevice)
        guard let format = TrackSyncConfiguration.Format(rawValue: syncFormat) else {
            throw ValidationError(
                .notAChoice(
                    option: "--sync-format", value: syncFormat,
                    choices: TrackSyncConfiguration.Format.allCases.map(\.rawValue)))
        }
        configuration.format = format
        if configuration.device.isEmpty { throw ValidationError(.empty(option: "--sync-id")) }
        if let problem = Limits.check("--sync-batch", syncBatch, 1...10_000)
            ?? Limits.check("--sync-threshold", syncThreshold, 1...1_000_000)
            ?? syncInterval.flatMap({ Limits.checkSeconds("--sync-interval", $0) })
        {
            throw ValidationError(.outOfRange(problem))
        }
        configuration.batch = syncBatch
        configuration.threshold = syncThreshold
        configuration.interval = syncInterval
        configuration.headers = try headers(syncHeader, option: "--sync-header")
        return configuration
    }
}
