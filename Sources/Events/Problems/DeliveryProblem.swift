import JSONOutput

/// A problem of a sink that hands events or track to a target elsewhere (a webhook, an MQTT
/// broker, a track server), named as messages name it (`target`: `webhook http://...`, no password).
public enum DeliveryProblem: Sendable, Equatable {
    /// The target failed: the events wait in the outbox and are tried again.
    case failing(target: String, TransportFailure, RetryPlan)
    /// The outbox in the state file failed under the delivery.
    case outbox(target: String, CaughtError, OutboxConsequence)
    /// The track sender's cursor could not be written to the state file.
    case cursorNotSaved(target: String, CaughtError)
    /// Track points still queued when `--drain-timeout` ran out; nil: how many is not known.
    case trackLeft(target: String, points: Int?, statePath: String, drainTimeout: Double)

    /// What happens to the events while the target is down.
    public enum RetryPlan: Sendable, Equatable {
        /// A live run keeps trying for as long as it runs.
        case whileRunning
        /// A replay tries until its end and its drain (`drainTimeout` seconds), then counts what is
        /// left.
        case untilTheReplayEnds(drainTimeout: Double)
    }

    /// What a failure of the outbox means for the events.
    public enum OutboxConsequence: Sendable, Equatable {
        case deliveryWaits
        case sentAgain
        case attemptNotNoted
        case marksLost

        var text: String {
            switch self {
            case .deliveryWaits: "cannot read the outbox; delivery waits"
            case .sentAgain: "delivered, but the outbox could not note it: it will be sent again"
            case .attemptNotNoted: "the outbox could not note a failed attempt"
            case .marksLost: "the delivered events could not be marked: they will be sent again on the next start"
            }
        }
    }

    public var text: String {
        switch self {
        case .failing(let target, let failure, let plan):
            return "\(target): \(failure.text); " + Self.text(plan)
        case .outbox(let target, let error, let consequence):
            return "\(target): \(error); \(consequence.text)"
        case .cursorNotSaved(let target, let error):
            return "\(target): cannot save its cursor: \(error)"
        case .trackLeft(let target, let points, let statePath, let drainTimeout):
            return "\(target): \(points.map(String.init) ?? "some") track points remain queued in \(statePath) "
                + "(not sent within --drain-timeout \(drainTimeout) s); the next run or 'gpsfence sync' sends them"
        }
    }

    private static func text(_ plan: RetryPlan) -> String {
        switch plan {
        case .whileRunning:
            "retrying with backoff, nothing is dropped"
        case .untilTheReplayEnds(let drainTimeout):
            "retrying with backoff until the replay ends (and at most \(formatted(drainTimeout, decimals: 1)) s more); "
                + "what is not delivered by then is counted at the end"
        }
    }
}
