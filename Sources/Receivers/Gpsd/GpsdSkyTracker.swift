import NMEA

/// Gathers the sky of gpsd's SKY and GST reports for each fix or cycle without one that its TPVs
/// make (the integrity monitor's input), as `SkyTracker` does from NMEA sentences.
///
/// gpsd sends a cycle's SKY and GST before or after its TPV, and a fix leaves only once its epoch
/// is over (`TPVEpochs`): the newest SKY speaks for the cycle, and is `listed` for the first fix
/// or cycle taken after it only; a GST joins the fix of its own time, which leaves after the GST
/// of the next epoch has come. No allocation.
public struct GpsdSkyTracker: Sendable {
    private var sky = EpochSky()
    /// The last GSTs with a time, oldest overwritten first.
    private var ellipses = InlineArray<4, TimedEllipse?>(repeating: nil)
    private var nextEllipse = 0

    private struct TimedEllipse: Sendable {
        var time: Int64
        var ellipse: EpochSky.ErrorEllipse
    }

    public init() {}

    /// Reads a SKY or a GST report; any other is ignored.
    public mutating func add(_ report: GpsdReport) {
        switch report.reportClass {
        case .sky:
            let said = report.sky
            if said.listed {
                let (pdop, vdop) = (sky.pdop, sky.vdop)
                sky = said
                sky.pdop = said.pdop ?? pdop
                sky.vdop = said.vdop ?? vdop
            } else {
                // A SKY of DOPs alone (gpsd after a GSA): the satellites stay as last listed.
                sky.pdop = said.pdop ?? sky.pdop
                sky.vdop = said.vdop ?? sky.vdop
            }
        case .other:
            guard let ellipse = report.ellipse, let time = report.tpv.time else { return }
            ellipses[nextEllipse] = TimedEllipse(time: time.millisecondsSinceEpoch, ellipse: ellipse)
            nextEllipse = (nextEllipse + 1) % ellipses.count
        case .tpv, .device, .devices, .version, .watch, .error:
            break
        }
    }

    /// The sky of the cycle at `time`, whose fix (or lack of one) leaves now. The satellites and
    /// DOPs stay for the next cycle, marked as not listed again.
    public mutating func take(at time: UTCTime?) -> EpochSky {
        var taken = sky
        if let time {
            let milliseconds = time.millisecondsSinceEpoch
            for index in ellipses.indices {
                if let timed = ellipses[index], timed.time == milliseconds { taken.ellipse = timed.ellipse }
            }
        }
        sky.listed = false
        return taken
    }
}
