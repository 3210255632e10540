import Alerts
import ArgumentParser
import Geofence

/// The alert flags of SPEC §7, for `run`.
struct AlertOptions: ParsableArguments {
    @Flag(help: "Print events as JSON Lines instead of human lines.")
    var json = false

    @Flag(help: "Ring the terminal bell (BEL to the controlling terminal) on --bell-on types.")
    var bell = false

    @Option(help: ArgumentHelp("Event types that ring the bell (default enter,approach).", valueName: "types"))
    var bellOn: String?

    @Option(help: ArgumentHelp("Run PROGRAM for each event, without a shell: the event as JSON on stdin, GPSFENCE_* in its environment. Repeatable.", valueName: "program"))
    var exec: [String] = []

    @Option(help: ArgumentHelp("Seconds before a hook is killed.", valueName: "seconds"))
    var execTimeout = 10.0

    @Option(help: ArgumentHelp("Hooks running at once, at most.", valueName: "count"))
    var execConcurrency = 4

    @Flag(help: "Desktop notifications (notify-send); without a desktop session this says so once and carries on.")
    var notify = false

    @Option(help: ArgumentHelp("POST each event as JSON to URL, through the durable outbox (at least once, in order). Repeatable.", valueName: "url"))
    var webhook: [String] = []

    func validate() throws {
        if let bellOn, case .failure(let error) = BellSink.types(bellOn) {
            throw ValidationError("--bell-on: unknown event type '\(error.name)'")
        }
        if bellOn != nil && !bell { throw ValidationError("--bell-on goes with --bell") }
        if let problem = Limits.execTimeout(execTimeout) ?? Limits.execConcurrency(execConcurrency) { throw ValidationError(problem) }
        for url in webhook where !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--webhook \(url): not an http:// or https:// URL")
        }
    }

    /// The sinks, in the order they see each event: the console first.
    func sinks(color: Bool, report: @escaping @Sendable (String) -> Void) throws -> [EventSink] {
        var sinks: [EventSink] = [ConsoleSink(style: json ? .json : .human(color: color), flushesEveryEvent: true)]
        if bell {
            let types = bellOn.flatMap { try? BellSink.types($0).get() } ?? BellSink.defaultTypes
            sinks.append(BellSink(types: types, report: report))
        }
        if !exec.isEmpty {
            sinks.append(try ExecHookSink(programs: exec, timeout: execTimeout, concurrency: execConcurrency, report: report))
        }
        if notify { sinks.append(NotifySink(report: report)) }
        return sinks
    }
}
