/// A decoded sentence: one struct per type, any talker.
public enum Sentence: Equatable, Sendable {
    case gga(GGA)
    case rmc(RMC)
    case gll(GLL)
    case gns(GNS)
    case gsa(GSA)
    case gsv(GSV)
    case gst(GST)
    case gbs(GBS)
    case vtg(VTG)
    case zda(ZDA)
    case txt(TXT)
    /// Framed and checksum-checked, but not a type we decode (proprietary `$P...`, AIS, ...), or a
    /// known type too damaged to read.
    case other(SentenceType)

    /// Decodes by sentence type, whatever the talker.
    public init(_ raw: RawSentence) {
        self.init(raw, fields: Fields(raw.body))
    }

    private init(_ raw: RawSentence, fields: borrowing Fields) {
        let type = raw.address.type
        switch type {
        case .gga: self = .gga(GGA(fields))
        case .rmc: self = .rmc(RMC(fields))
        case .gll: self = .gll(GLL(fields))
        case .gns: self = .gns(GNS(fields))
        case .gsa: self = GSA(fields).map(Sentence.gsa) ?? .other(type)
        case .gsv: self = GSV(fields).map(Sentence.gsv) ?? .other(type)
        case .gst: self = .gst(GST(fields))
        case .gbs: self = .gbs(GBS(fields))
        case .vtg: self = .vtg(VTG(fields))
        case .zda: self = .zda(ZDA(fields))
        case .txt: self = .txt(TXT(fields))
        default: self = .other(type)
        }
    }

    /// The UTC time of day the sentence carries, for the sentence types that carry one.
    public var timeOfDay: TimeOfDay? {
        switch self {
        case .gga(let s): s.time
        case .rmc(let s): s.time
        case .gll(let s): s.time
        case .gns(let s): s.time
        case .gst(let s): s.time
        case .gbs(let s): s.time
        case .zda(let s): s.time
        case .gsa, .gsv, .vtg, .txt, .other: nil
        }
    }
}
