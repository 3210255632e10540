import Alerts
import Alerts
import ArgumentParser
import Geofence

/// The alert flags of SPEC §7, for `run` and `replay`.
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

    func deliveryPolicy(_ context: SinkContext) -> OutboxDelivery.Policy {
        var policy = OutboxDelivery.Policy()
        policy.drainTimeout = context.drainTimeout
        return policy
    }

    /// Whether a sink delivers through the state file's outbox.
    var needsOutbox: Bool { !webhook.isEmpty }

    /// The sinks, in the order they see each event: the console first.
    /// - Parameter live: a live run writes each console line at once (an alert that waits in a
    ///   buffer is late); a replay lets lines collect and writes them in large blocks.
    func sinks(color: Bool, live: Bool, context: SinkContext) throws -> [EventSink] {
        var sinks: [EventSink] = [ConsoleSink(style: json ? .json : .human(color: color), flushesEveryEvent: live)]
        if bell {
            let types = bellOn.flatMap { try? BellSink.types($0).get() } ?? BellSink.defaultTypes
            sinks.append(BellSink(types: types, report: context.report))
        }
        if !exec.isEmpty {
            sinks.append(try ExecHookSink(programs: exec, timeout: execTimeout, concurrency: execConcurrency, report: context.report))
        }
        if notify { sinks.append(NotifySink(report: context.report)) }
        for endpoint in webhook {
            guard let outbox = context.outbox else { preconditionFailure("webhooks need the outbox (needsOutbox)") }
            sinks.append(
                OutboxDelivery(
                    transport: try WebhookTransport(endpoint: endpoint), outbox: outbox, policy: deliveryPolicy(context),
                    drainsOnFinish: context.inputEnds, report: context.report))
        }
        return sinks
    }
}
