import Presentation

/// A problem of an MQTT connection or of what arrives on it (docs/mqtt.md).
public enum BrokerProblem: Sendable, Equatable {
    /// The connection `client` (its display name) failed or ended; `broker` is the one tried when
    /// there are several, and the next is tried; with one, it reconnects with backoff.
    case away(client: String, broker: String?, BrokerCause)
    /// A message on the alarm's command topic that is not `ack`; `payload`: its first characters.
    case notACommand(topic: String, payload: String)
    /// A retained `ack` on the alarm's command topic: it would answer every alarm to come.
    case retainedAck(topic: String)
    /// More fences than get a Home Assistant sensor each without asking.
    case homeAssistantSensors(fences: Int, limit: Int, marked: Int)

    public var text: String {
        switch self {
        case .away(let client, let broker?, let cause):
            "\(client): \(broker): \(cause.text); trying the next broker, events are kept in the state file"
        case .away(let client, nil, let cause):
            "\(client): \(cause.text); reconnecting with backoff, events are kept in the state file"
        case .notACommand(let topic, let payload):
            "\(topic): '\(HumanText.printable(String(payload.prefix(32))))' is not a command (send ack); ignored"
        case .retainedAck(let topic):
            "\(topic): a retained ack is ignored (publish it without the retain flag)"
        case .homeAssistantSensors(let fences, let limit, let marked):
            "Home Assistant: \(fences) fences, more than the \(limit) that get a sensor each without asking; "
                + "\(marked) have one: give a fence the property \"homeassistant\": true for a sensor (docs/mqtt.md)"
        }
    }
}
