/// VTG: track and speed over ground.
///
/// `$GPVTG,t.t,T,m.m,M,n.n,N,k.k,K[,m]*hh` — NMEA 2.3 adds the mode; very old receivers send the
/// values without the unit letters (`$GPVTG,t.t,m.m,n.n,k.k`).
public struct VTG: Equatable, Sendable {
    public var trackTrue: Double?
    public var trackMagnetic: Double?
    public var speedKnots: Double?
    public var speedKmh: Double?
    public var mode: UInt8?

    public init(_ f: borrowing Fields) {
        let count = f.count
        let unitLetter = f.character(2)
        if count >= 9 || unitLetter == 0x54 {
            trackTrue = f.decimal(1)
            trackMagnetic = f.decimal(3)
            speedKnots = f.decimal(5)
            speedKmh = f.decimal(7)
            mode = f.character(9)
        } else {
            trackTrue = f.decimal(1)
            trackMagnetic = f.decimal(2)
            speedKnots = f.decimal(3)
            speedKmh = f.decimal(4)
        }
    }

    public var isValid: Bool { FAAMode.isRealFix(mode) }
}
