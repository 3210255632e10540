import Events
import NMEA
import Receivers

/// A serial receiver as an engine input: a `Reader` with a decoder behind it, serial bytes in,
/// fixes and device events out, across unplug and replug.
public final class SerialFixSource: FixSource {
    public let reader: Reader
    public let rollover: WeekRollover

    public var waitsForRoom: Bool { false }
    public var isLive: Bool { true }
    public var readCues: ReadSchedule.Cues? { reader.cues }

    public init(_ configuration: Reader.Configuration, rollover: WeekRollover) {
        reader = Reader(configuration)
        self.rollover = rollover
    }

    public func stop() { reader.stop() }

    public func run(_ emit: (EngineInput) -> Void) {
        var decoding = SerialDecoding(rollover: rollover)
        let reader = self.reader
        reader.run { event in decoding.take(event, reader: reader, emit: emit) }
    }
}

/// What a serial source keeps from one read to the next: the decoder of the current connection,
/// the clock that dates its fixes, the device's name. One value changed by one call per read:
/// as three variables captured by the reader's handler, every access to them paid a dynamic
/// exclusivity check, about 4% of the reader's CPU (docs/performance.md, "Live cost").
struct SerialDecoding {
    let rollover: WeekRollover
    /// A fresh decoder per connection: nothing half-framed or half-learned from before an
    /// unplug mixes with the new stream. The epoch in progress at a loss is emitted first.
    private var decoder: Decoder
    private var clock = ReceiverClock(borrowsSystemDate: true)
    private var device = "the receiver"

    init(rollover: WeekRollover) {
        self.rollover = rollover
        decoder = Self.decoder(rollover)
    }

    /// A connection's first fix leaves with its position, as gpsd's does (docs/nmea.md).
    private static func decoder(_ rollover: WeekRollover) -> Decoder {
        let decoder = Decoder(rollover: rollover)
        decoder.assembler.firstFixAtFirstPosition = true
        decoder.tracksSky = true
        return decoder
    }

    mutating func take(_ event: ReaderEvent, reader: Reader, emit: (EngineInput) -> Void) {
        func fix(_ fix: Fix) {
            reader.cues.noteCycleEnded()
            let (dated, notice) = clock.dated(fix, device: device)
            if let notice { emit(.problem(notice)) }
            emit(.fix(dated, sky: self.decoder.takeSky(at: fix.timeOfDay)))
        }
        func silentCycle(_ cycle: EpochTime) {
            reader.cues.noteCycleEnded()
            emit(.silentCycle(cycle, sky: self.decoder.takeSky(at: cycle.timeOfDay)))
        }
        // The decoder is a class: held in a local, its calls do not overlap the handlers' changes
        // to the clock.
        let decoder = self.decoder
        switch event {
        case .connected(let path, let rate, _):
            self.decoder = Self.decoder(rollover)
            device = path
            emit(.connected(device: path, detail: rate.map { "at \($0) baud" }))
        case .data(let bytes):
            decoder.push(bytes, onFix: fix, onNoFix: silentCycle)
            sayRollover(emit)
            if decoder.epochAwaitsClose { reader.cues.noteCycleOpen() }
        case .quiet:
            // The receiver's cycle is over: its fix leaves now, not when the next cycle's time
            // comes a period later (until the assembler has learned which sentence ends a cycle).
            decoder.lineWentQuiet(onFix: fix, onNoFix: silentCycle)
            sayRollover(emit)
        case .lost(let path, let reason):
            decoder.finish(onFix: fix, onNoFix: silentCycle)
            sayRollover(emit)
            emit(.lost(device: path, reason: reason))
        case .unavailable(let error):
            emit(.problem(.unavailable(error)))
        case .noNMEA(let path, let attempts):
            emit(.problem(.noNMEA(path: path, tried: attempts.map { "\($0.rate) (\($0.bytes) bytes)" })))
        }
    }

    /// The decoder holds its assembler for the length of a push: a correction is seen after it.
    private mutating func sayRollover(_ emit: (EngineInput) -> Void) {
        if let notice = clock.rolloverNotice(decoder.assembler.firstRollover, device: device) {
            emit(.problem(notice))
        }
    }
}
