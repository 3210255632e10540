import Presentation

/// Good news from a delivery thread (a webhook, broker or track server reachable again): said to
/// the person on standard error, never as an `error` event, so that an automation on errors does
/// not fire on it. What waited meanwhile shows in the delivery counters of `status`.
public enum DeliveryNotice {
    public static let standardError: @Sendable (String) -> Void = { message in
        OutputWriter.standardError.write(line: "gpsfence: " + message)
    }
}
