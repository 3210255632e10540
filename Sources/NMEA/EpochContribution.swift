/// What each sentence type adds to the epoch it belongs to (see docs/nmea.md, "Fix assembly").
/// A sentence that reports no fix adds no position.
protocol EpochContribution {
    /// The UTC time of day the sentence carries, if its type carries one.
    var timeOfDay: TimeOfDay? { get }
    /// A fix type the receiver keeps from cycle to cycle (GSA only).
    var carriedFixType: Int? { get }
    /// The sentence has a time field that holds no valid time of day. Such a sentence must not be
    /// taken for an untimed one (which joins the epoch in progress): its position could belong to
    /// any time, so it contributes nothing.
    var timeIsInvalid: Bool { get }
    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover)
}

extension EpochContribution {
    var carriedFixType: Int? { nil }
    var timeIsInvalid: Bool { false }
}

extension GGA: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        if hasRealFix {
            epoch.setPosition(latitude, longitude)
            if let altitude { epoch.altitude = altitude }
        }
        epoch.quality = quality ?? epoch.quality
        epoch.satellitesUsed = satellitesUsed ?? epoch.satellitesUsed
        epoch.hdop = hdop ?? epoch.hdop
    }
}

extension RMC: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        if isValid {
            epoch.setPosition(latitude, longitude)
            if let speedKnots { epoch.speed = speedKnots * FixAssembler.metresPerSecondPerKnot }
            if let track { epoch.track = track }
        }
        if let day, let month, let twoDigitYear {
            // Two-digit years: 80-99 read as 1980-1999 (GPS began in 1980), the rest as 20xx; the
            // rollover pivot then decides (docs/nmea.md).
            let reported = CivilDate(
                year: twoDigitYear >= 80 ? 1900 + twoDigitYear : 2000 + twoDigitYear, month: month, day: day)
            if reported.isValid { epoch.setDate(reported, rollover) }
        }
    }
}

extension GLL: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        // Early GLL has no status field: its position stands unless another sentence says no fix.
        if status == nil || isValid { epoch.setPosition(latitude, longitude) }
    }
}

extension GNS: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        guard hasFix else { return }
        epoch.setPosition(latitude, longitude)
        if let altitude { epoch.altitude = altitude }
        epoch.satellitesUsed = satellitesUsed ?? epoch.satellitesUsed
        epoch.hdop = hdop ?? epoch.hdop
    }
}

extension GSA: EpochContribution {
    var timeOfDay: TimeOfDay? { nil }
    var carriedFixType: Int? { trustedFixType }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        if let trustedFixType { epoch.gsaFixType = trustedFixType }
    }
}

extension VTG: EpochContribution {
    var timeOfDay: TimeOfDay? { nil }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        guard isValid else { return }
        if let speedKnots {
            epoch.speed = speedKnots * FixAssembler.metresPerSecondPerKnot
        } else if let speedKmh {
            epoch.speed = speedKmh / 3.6
        }
        if let trackTrue { epoch.track = trackTrue }
    }
}

extension GST: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        epoch.gstError = horizontalError ?? epoch.gstError
    }
}

extension ZDA: EpochContribution {
    var timeOfDay: TimeOfDay? { time }

    func contribute(to epoch: inout Epoch, _ rollover: WeekRollover) {
        if let date { epoch.setDate(date, rollover) }
    }
}
