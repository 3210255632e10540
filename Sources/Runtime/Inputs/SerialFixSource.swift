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
        var clock = ReceiverClock(borrowsSystemDate: true)
        var device = "the receiver"
        let reader = self.reader
        func emitFix(_ fix: Fix) {
            reader.noteCycleEnded()
            let (dated, notice) = clock.dated(fix, device: device)
            if let notice { emit(.problem(notice)) }
            emit(.fix(dated))
        }
        func emitSilentCycle(_ cycle: EpochTime) {
            reader.noteCycleEnded()
            emit(.silentCycle(cycle))
        }
        // The decoder keeps its assembler in locals during a push, so a correction is seen after it.
        func sayRollover() {
            if let notice = clock.rolloverNotice(decoder.assembler, device: device) { emit(.problem(notice)) }
        }
        reader.run { event in
            switch event {
            case .connected(let path, let rate, _):
                decoder = Decoder(rollover: rollover)
                device = path
                emit(.connected(device: path, detail: rate.map { "at \($0) baud" }))
            case .data(let bytes):
                decoder.push(bytes, onFix: emitFix, onNoFix: emitSilentCycle)
                sayRollover()
            case .lost(let path, let reason):
                decoder.finish(onFix: emitFix, onNoFix: emitSilentCycle)
                sayRollover()
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
