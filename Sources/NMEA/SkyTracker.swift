/// Gathers a cycle's sky (`EpochSky`) from its GSV, GSA, GST and GBS sentences, beside fix
/// assembly: a source takes the sky with each fix or cycle without one (`take()`).
///
/// GSV listings come in numbered parts, one listing per talker and signal; a listing replaces that
/// talker's satellites once its last part has arrived, so a cycle whose GSV came after its fix
/// left is seen at the next one. No allocation.
public struct SkyTracker: Sendable {
    /// The satellites of every complete listing, and the cycle's other values so far.
    private var sky = EpochSky()
    /// The listing in progress: its talker, signal and the parts seen.
    private var partial = EpochSky()
    private var partialKey: (talker: UInt16, signalID: UInt8)?
    private var nextPart = 1
    /// GST's ellipse and GBS's word carry a time of day: they join the cycle of that time only.
    private var ellipse: (time: TimeOfDay, value: EpochSky.ErrorEllipse)?
    private var raim: (time: TimeOfDay, failedSatellite: Int?)?

    public init() {}

    /// Reads the sentences a sky is made of; any other is ignored.
    public mutating func add(_ raw: RawSentence) {
        switch raw.address.type {
        case .gsv: if let gsv = GSV(Fields(raw.body)) { add(gsv, talker: raw.address.talker ?? 0) }
        case .gsa:
            // Only a GSA of a fix: receivers send GSA after their cycle, and the 99.99 of the
            // last cycle without a fix would otherwise be the first fix's DOP.
            if let gsa = GSA(Fields(raw.body)), (gsa.trustedFixType ?? 0) >= 2 {
                sky.pdop = gsa.pdop ?? sky.pdop
                sky.vdop = gsa.vdop ?? sky.vdop
            }
        case .gst:
            let gst = GST(Fields(raw.body))
            if let time = gst.time, let major = gst.semiMajor, let minor = gst.semiMinor {
                ellipse = (
                    time, EpochSky.ErrorEllipse(semiMajor: major, semiMinor: minor, altitudeError: gst.altitudeError)
                )
            }
        case .gbs:
            let gbs = GBS(Fields(raw.body))
            if let time = gbs.time { raim = (time, gbs.reportsFault ? gbs.failedSatellite : nil) }
        default: break
        }
    }

    /// The sky of the cycle at `timeOfDay`, just completed. The satellites and DOPs stay (for a
    /// cycle whose GSV comes later) but the satellites are marked as not listed again.
    public mutating func take(at timeOfDay: TimeOfDay) -> EpochSky {
        var taken = sky
        if let ellipse, ellipse.time == timeOfDay { taken.ellipse = ellipse.value }
        if let raim, raim.time == timeOfDay {
            taken.hasRAIM = true
            taken.raimFailedSatellite = raim.failedSatellite
        }
        sky.listed = false
        return taken
    }

    private mutating func add(_ gsv: GSV, talker: UInt16) {
        let signalID = UInt8(clamping: max(0, gsv.signalID ?? 0))
        let number = gsv.messageNumber ?? 1
        if number == 1 || partialKey.map({ $0.talker != talker || $0.signalID != signalID }) ?? true
            || number != nextPart
        {
            guard number == 1 else {
                // A part out of order: the listing is cut; wait for the next one's first part.
                partialKey = nil
                return
            }
            partial = EpochSky()
            partialKey = (talker, signalID)
        }
        for index in 0..<gsv.satelliteCount {
            let satellite = gsv.satellite(index)
            guard let prn = satellite.prn, prn > 0 else { continue }
            partial.append(
                EpochSky.Signal(
                    talker: talker, signalID: signalID, prn: UInt16(clamping: prn),
                    cn0: satellite.snr.map { UInt8(clamping: $0) }))
        }
        nextPart = number + 1
        if number >= (gsv.totalMessages ?? 1) {
            sky.removeAll(talker: talker, signalID: signalID)
            for index in 0..<partial.count { sky.append(partial.signal(index)) }
            sky.listed = true
            partialKey = nil
        }
    }
}
