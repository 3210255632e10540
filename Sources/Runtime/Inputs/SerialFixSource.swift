import NMEA
import Serial

/// A serial receiver as an engine input: a `Reader` with a decoder behind it, serial bytes in,
/// fixes and device events out, across unplug and replug.
public final class SerialFixSource: FixSource {
    public let reader: Reader
    public let rollover: WeekRollover

    public var waitsForRoom: Bool { false }
    public var isLive: Bool { true }

    public init(_ configuration: Reader.Configuration, rollover: WeekRollover) {
        reader = Reader(configuration)
        self.rollover = rollover
    }

    public func stop() { reader.stop() }

    public func run(_ emit: (EngineInput) -> Void) {
        // A fresh decoder per connection: nothing half-framed or half-learned from before an
        // unplug mixes with the new stream. The epoch in progress at a loss is emitted first.
        var decoder = Decoder(rollover: rollover)
        reader.run { event in
            switch event {
            case .connected(let path, let rate, _):
                decoder = Decoder(rollover: rollover)
                emit(.connected(device: path, detail: rate.map { "at \($0) baud" }))
            case .data(let bytes):
                decoder.push(bytes, onFix: { emit(.fix($0)) }, onNoFix: { emit(.silentCycle($0)) })
            case .lost(let path, let reason):
                decoder.finish(onFix: { emit(.fix($0)) }, onNoFix: { emit(.silentCycle($0)) })
                emit(.lost(device: path, reason: reason))
            case .unavailable(let error):
                emit(.problem(error.description))
            case .noNMEA(let path, let attempts):
                let tried = attempts.map { "\($0.rate) (\($0.bytes) bytes)" }.joined(separator: ", ")
                emit(.problem("\(path): no valid NMEA at any rate; tried \(tried)"))
            }
        }
    }
}
