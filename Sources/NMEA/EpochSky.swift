/// What the receiver said of its sky in one cycle, beside the fix: each satellite's signal strength
/// (GSV), the DOPs (GSA), the error ellipse (GST) and its own fault detection (GBS). The integrity
/// monitor judges the fix by it. Fixed size, no allocation: it rides the engine's ring.
public struct EpochSky: Sendable, BitwiseCopyable {
    /// One satellite's signal: which one (constellation, signal and number) and its C/N0.
    public struct Signal: Equatable, Sendable, BitwiseCopyable {
        /// The talker of its GSV sentence (`GP`, `GL`, `GA`, ...), packed; with `signalID`, one
        /// satellite's number is unique within it.
        public var talker: UInt16
        public var signalID: UInt8
        public var prn: UInt16
        /// dB-Hz; nil when the satellite is in view but not tracked.
        public var cn0: UInt8?

        public init(talker: UInt16, signalID: UInt8, prn: UInt16, cn0: UInt8?) {
            self.talker = talker
            self.signalID = signalID
            self.prn = prn
            self.cn0 = cn0
        }

        /// Whether `other` is the same satellite's same signal.
        public func isSame(as other: Signal) -> Bool {
            talker == other.talker && signalID == other.signalID && prn == other.prn
        }
    }

    /// GST's error ellipse, 1-sigma metres.
    public struct ErrorEllipse: Equatable, Sendable, BitwiseCopyable {
        public var semiMajor: Double
        public var semiMinor: Double
        public var altitudeError: Double?

        public init(semiMajor: Double, semiMinor: Double, altitudeError: Double?) {
            self.semiMajor = semiMajor
            self.semiMinor = semiMinor
            self.altitudeError = altitudeError
        }
    }

    /// The most satellites one sky holds; a receiver that lists more keeps its first ones.
    public static let capacity = 48

    private var storage = InlineArray<48, Signal>(repeating: Signal(talker: 0, signalID: 0, prn: 0, cn0: nil))
    /// Satellites listed in `signals`.
    public private(set) var count = 0
    /// Whether a whole GSV listing arrived since the last sky: without one, `signals` says nothing
    /// of this cycle.
    public var listed = false
    public var pdop: Double?
    public var vdop: Double?
    public var ellipse: ErrorEllipse?
    /// GBS's failed satellite, when the cycle had a GBS naming one.
    public var raimFailedSatellite: Int?
    /// Whether the cycle had a GBS at all (a receiver that sends none cannot report a fault).
    public var hasRAIM = false

    public init() {}

    public static let empty = EpochSky()

    public func signal(_ index: Int) -> Signal { storage[index] }

    /// Adds a satellite; false when the sky is full.
    @discardableResult
    public mutating func append(_ signal: Signal) -> Bool {
        guard count < Self.capacity else { return false }
        storage[count] = signal
        count += 1
        return true
    }

    /// Removes every satellite of `talker`'s listing of `signalID`.
    mutating func removeAll(talker: UInt16, signalID: UInt8) {
        var kept = 0
        for index in 0..<count {
            let signal = storage[index]
            if signal.talker == talker && signal.signalID == signalID { continue }
            storage[kept] = signal
            kept += 1
        }
        count = kept
    }

    /// The C/N0 of the same satellite's same signal, if it is listed and tracked.
    public func cn0(of signal: Signal) -> UInt8? {
        for index in 0..<count where storage[index].isSame(as: signal) { return storage[index].cn0 }
        return nil
    }

    /// Satellites with a signal (a C/N0 above zero).
    public var tracked: Int {
        var tracked = 0
        for index in 0..<count where (storage[index].cn0 ?? 0) > 0 { tracked += 1 }
        return tracked
    }
}

extension EpochSky: Equatable {
    public static func == (lhs: EpochSky, rhs: EpochSky) -> Bool {
        guard lhs.count == rhs.count, lhs.listed == rhs.listed, lhs.pdop == rhs.pdop, lhs.vdop == rhs.vdop,
            lhs.ellipse == rhs.ellipse, lhs.raimFailedSatellite == rhs.raimFailedSatellite,
            lhs.hasRAIM == rhs.hasRAIM
        else { return false }
        return (0..<lhs.count).allSatisfy { lhs.storage[$0] == rhs.storage[$0] }
    }
}
