import NMEA
import Serial

/// What the live path hands the engine: fixes, and the device coming and going (SPEC §6
/// `device_connected` / `device_lost`; the event JSON is the engine's business).
public enum LiveEvent {
    case fix(Fix)
    /// A receiver cycle without a usable fix: its time keeps the engine's clock running.
    case silentCycle(EpochTime)
    case deviceConnected(path: String, rate: BaudRate?)
    case deviceLost(path: String, reason: String)
    /// The device cannot be used yet (absent, permission denied, busy, no NMEA at any rate): for
    /// an `error` event or a log line. The source keeps retrying.
    case problem(String)
}

/// A `Reader` with a decoder behind it: serial bytes in, fixes and device events out, across
/// unplug and replug. Runs on the caller's thread (the reader thread of SPEC §2) until `stop()`.
public final class LiveFixSource: Sendable {
    public let reader: Reader
    public let rollover: WeekRollover

    public init(_ configuration: Reader.Configuration, rollover: WeekRollover) {
        reader = Reader(configuration)
        self.rollover = rollover
    }

    public func stop() { reader.stop() }

    public func run(_ handler: (LiveEvent) -> Void) {
        // A fresh decoder per connection: nothing half-framed or half-learned from before an
        // unplug mixes with the new stream. The epoch in progress at a loss is emitted first.
        var decoder = Decoder(rollover: rollover)
        reader.run { event in
            switch event {
            case .connected(let path, let rate, _):
                decoder = Decoder(rollover: rollover)
                handler(.deviceConnected(path: path, rate: rate))
            case .data(let bytes):
                decoder.push(bytes, onFix: { handler(.fix($0)) }, onNoFix: { handler(.silentCycle($0)) })
            case .lost(let path, let reason):
                decoder.finish(onFix: { handler(.fix($0)) }, onNoFix: { handler(.silentCycle($0)) })
                handler(.deviceLost(path: path, reason: reason))
            case .unavailable(let error):
                handler(.problem(error.description))
            case .noNMEA(let path, let attempts):
                let tried = attempts.map { "\($0.rate) (\($0.bytes) bytes)" }.joined(separator: ", ")
                handler(.problem("\(path): no valid NMEA at any rate; tried \(tried)"))
            }
        }
    }
}
