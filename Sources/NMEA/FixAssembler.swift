/// Merges the sentences of one receiver cycle into one fix.
///
/// Sentences that carry the same UTC time of day form one epoch; sentences without a time (GSA,
/// VTG, GSV) belong to the epoch in progress. A fix is emitted as soon as the epoch is complete:
///
/// - the assembler learns which timestamped sentence ends the receiver's cycle (the last one seen
///   before the time of day changes, twice in a row) and from then on emits when it arrives;
/// - until that is learned, or when a cycle is cut short, it emits when the time of day changes, or
///   earlier when a live reader says the line went quiet after the cycle's burst (`lineWentQuiet`);
/// - `finish()` emits what is left at the end of the input;
/// - on a live port (`firstFixAtFirstPosition`), the first fix of a connection leaves as soon as
///   its epoch has a position, as gpsd reports it: a receiver opened at 9600 baud sends its whole
///   1 Hz cycle over 0.4 s, and the rest of that first epoch would hold the fix back that long.
///
/// See docs/nmea.md for the merge rules. No allocation.
public struct FixAssembler: Sendable {
    public var rollover: WeekRollover
    /// The first date moved forward for a week rollover, if any: nil while the receiver's dates
    /// are plausible.
    public private(set) var firstRollover: RolloverCorrection?
    public var accuracyModel: AccuracyModel

    private var epoch = Epoch()
    /// Date of the most recent dated epoch, and that epoch's time of day, to carry the date forward.
    private var lastDate: CivilDate?
    private var lastDateTimeOfDay = TimeOfDay(milliseconds: 0)
    /// The last fix type a GSA reported; receivers often send GSA after the cycle's last timed
    /// sentence, so it describes the fix being built next.
    private var lastGSAFixType: Int?
    private var lastMode: Fix.Mode?

    /// The timestamped sentence that ends a cycle, once learned.
    public private(set) var cycleEnder: SentenceAddress?
    private var enderCandidate: SentenceAddress?
    private var learnsCycleEnd = true
    /// Whether a quiet line closes the epoch in progress: until a sentence of an epoch closed that
    /// way arrives after all (this receiver pauses within its cycle).
    public private(set) var closesOnQuiet = true

    /// Whether the first fix leaves on the sentence that completes its position rather than with
    /// its whole epoch. That fix carries what came before: a receiver that sends RMC first gives
    /// it no altitude, satellites or accuracy (the engine takes an unknown accuracy as good).
    public var firstFixAtFirstPosition = false
    private var fixesEmitted = 0

    /// Sentences dropped whole because their time field holds no valid time of day.
    public private(set) var invalidTimes: UInt64 = 0

    public init(rollover: WeekRollover = .captures, accuracyModel: AccuracyModel = AccuracyModel()) {
        self.rollover = rollover
        self.accuracyModel = accuracyModel
    }

    /// Adds one sentence; calls `onFix` for each fix it completes (at most two: the epoch that a
    /// time change closes, and the new one when this very sentence ends it), and `onNoFix` for each
    /// completed epoch without a usable position (its time tells the event engine that the receiver
    /// is alive but has no fix: `fix_lost` runs on receiver time, docs/events.md).
    ///
    /// Decodes only the sentence types a fix is made of, straight from the raw sentence into the
    /// epoch, with no `Sentence` value in between: this is the one dispatch of fix assembly.
    public mutating func add(
        raw: RawSentence, onFix emit: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        let address = raw.address
        switch address.type {
        case .gga: try add(GGA(Fields(raw.body)), address, emit, onNoFix)
        case .rmc: try add(RMC(Fields(raw.body)), address, emit, onNoFix)
        case .gll: try add(GLL(Fields(raw.body)), address, emit, onNoFix)
        case .gns: try add(GNS(Fields(raw.body)), address, emit, onNoFix)
        case .gsa: if let gsa = GSA(Fields(raw.body)) { try add(gsa, address, emit, onNoFix) }
        case .gst: try add(GST(Fields(raw.body)), address, emit, onNoFix)
        case .vtg: try add(VTG(Fields(raw.body)), address, emit, onNoFix)
        case .zda: try add(ZDA(Fields(raw.body)), address, emit, onNoFix)
        default: break
        }
    }

    private mutating func add<S: EpochContribution>(
        _ sentence: S, _ address: SentenceAddress, _ emit: (Fix) throws -> Void, _ onNoFix: (EpochTime) throws -> Void
    ) rethrows {
        if sentence.timeIsInvalid {
            invalidTimes &+= 1
            return
        }
        if let fixType = sentence.carriedFixType {
            lastGSAFixType = fixType
        }
        guard let time = sentence.timeOfDay else {
            // Untimed sentences after the cycle's last timed one (GSA, GSV, VTG) still describe
            // that cycle, as gpsd takes them; its fix is out already, so only the GSA fix type,
            // which receivers keep from cycle to cycle, is carried on (above).
            if !epoch.close.emitted { sentence.contribute(to: &epoch, rollover) }
            return
        }
        if epoch.close.emitted, epoch.timeOfDay == time {
            switch epoch.close {
            case .open: break
            case .onQuiet: pauseWithinCycle(sentence, address, time: time)
            case .atFirstPosition: restOfFirstEpoch(sentence, address, time: time)
            case .atEnd: lateSentence(sentence, time: time)
            }
            return
        }
        if let current = epoch.timeOfDay, current != time {
            learnCycleEnd()
            if !epoch.close.emitted { try close(emit, onNoFix) }
            epoch = Epoch()
        }
        epoch.timeOfDay = time
        epoch.lastTimedAddress = address
        sentence.contribute(to: &epoch, rollover)
        if let date = epoch.date {
            // Remembered even from cycles without a position: the first fix may come without RMC.
            lastDate = date
            lastDateTimeOfDay = time
            if firstRollover == nil, let reported = epoch.rolledForwardFrom {
                firstRollover = RolloverCorrection(reported: reported, corrected: date)
            }
        }
        if let ender = cycleEnder, address == ender, !epoch.close.emitted {
            epoch.close = .atEnd
            try close(emit, onNoFix)
        } else if firstFixAtFirstPosition, fixesEmitted == 0, !epoch.close.emitted, epochHasPosition {
            epoch.close = .atFirstPosition
            try close(emit, onNoFix)
        }
    }

    /// Whether an epoch is in progress that only its time change, or the line going quiet, would
    /// emit: its cycle end is not known.
    public var epochAwaitsClose: Bool {
        cycleEnder == nil && closesOnQuiet && !epoch.close.emitted && epoch.timeOfDay != nil
    }

    /// The line went quiet after a burst: the receiver has sent its cycle, so the epoch in progress
    /// is complete and is emitted now rather than a whole period later, when the next cycle's time
    /// arrives. Only a live reader knows when the line is quiet: a capture read from a file, which
    /// never says so, gives the same fixes as before. The cycle end is still learned at the time
    /// change; once it is, its sentence emits each epoch first and this does nothing.
    public mutating func lineWentQuiet(onFix emit: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void) rethrows {
        guard epochAwaitsClose else { return }
        epoch.close = .onQuiet
        try close(emit, onNoFix)
    }

    /// Ends the input: emits the epoch in progress if it was not emitted yet.
    public mutating func finish(_ emit: (Fix) throws -> Void) rethrows {
        try finish(onFix: emit, onNoFix: { _ in })
    }

    public mutating func finish(onFix emit: (Fix) throws -> Void, onNoFix: (EpochTime) throws -> Void) rethrows {
        if !epoch.close.emitted, epoch.timeOfDay != nil { try close(emit, onNoFix) }
        epoch = Epoch()
    }

    private mutating func close(_ emit: (Fix) throws -> Void, _ onNoFix: (EpochTime) throws -> Void) rethrows {
        if let fix = makeFix() {
            fixesEmitted &+= 1
            try emit(fix)
        } else if let timeOfDay = epoch.timeOfDay {
            let date = resolveDate(timeOfDay)
            try onNoFix(EpochTime(time: date.map { UTCTime(date: $0, timeOfDay: timeOfDay) }, timeOfDay: timeOfDay))
        }
    }

    /// A sentence of an epoch that was already emitted: the learned cycle end is not where this
    /// receiver's cycle ends (its cycles vary, as with a 10 Hz GGA and a 1 Hz RMC). Emitting again
    /// would duplicate the fix, so only its date is kept, and from now on fixes are emitted at
    /// the time change, which is always right.
    private mutating func lateSentence<S: EpochContribution>(_ sentence: S, time: TimeOfDay) {
        cycleEnder = nil
        learnsCycleEnd = false
        keepDate(of: sentence, time: time)
    }

    /// A sentence of an epoch that a quiet line closed: this receiver pauses within its cycle for
    /// longer than the reader's quiet gap. Its fix is out already, without this sentence; the
    /// cycle end is still learned as usual, and the line going quiet closes no more epochs, so
    /// that the next fixes are whole. Only its date is kept.
    private mutating func pauseWithinCycle<S: EpochContribution>(
        _ sentence: S, _ address: SentenceAddress, time: TimeOfDay
    ) {
        closesOnQuiet = false
        epoch.lastTimedAddress = address
        keepDate(of: sentence, time: time)
    }

    /// A sentence of the first epoch after its fix left early: the rest of the cycle, as expected.
    /// The cycle end is learned from it as usual; only its date is kept.
    private mutating func restOfFirstEpoch<S: EpochContribution>(
        _ sentence: S, _ address: SentenceAddress, time: TimeOfDay
    ) {
        epoch.lastTimedAddress = address
        keepDate(of: sentence, time: time)
    }

    /// The date a sentence of an epoch already emitted carries, for the epochs after it.
    private mutating func keepDate<S: EpochContribution>(of sentence: S, time: TimeOfDay) {
        var late = Epoch()
        sentence.contribute(to: &late, rollover)
        if let date = late.date {
            lastDate = date
            lastDateTimeOfDay = time
        }
    }

    /// Whether `makeFix` would make a fix of the epoch so far.
    private var epochHasPosition: Bool {
        guard let latitude = epoch.latitude, let longitude = epoch.longitude, !(latitude == 0 && longitude == 0)
        else { return false }
        let fixType = epoch.gsaFixType ?? lastGSAFixType
        return !(fixType == 1 && epoch.gsaFixType != nil && epoch.altitude == nil)
    }

    /// Learns only from cycles that had a position: without a fix, receivers leave the time out of
    /// some sentences (an empty GGA or RMC), so those cycles end elsewhere.
    private mutating func learnCycleEnd() {
        guard learnsCycleEnd, epoch.latitude != nil, let last = epoch.lastTimedAddress else { return }
        if last == enderCandidate {
            cycleEnder = last
        } else if cycleEnder != nil, last != cycleEnder {
            // The receiver changed its cycle (or this one was cut short): learn again rather than
            // wait for a sentence that may no longer come last.
            cycleEnder = nil
        }
        enderCandidate = last
    }

    private mutating func makeFix() -> Fix? {
        guard let timeOfDay = epoch.timeOfDay, let latitude = epoch.latitude, let longitude = epoch.longitude,
            !(latitude == 0 && longitude == 0)
        else { return nil }
        // An altitude in the epoch means a 3D solution, whatever a GSA said earlier (receivers
        // send GSA after the cycle or stale); otherwise the GSA fix type decides, else 2D.
        let fixType = epoch.gsaFixType ?? lastGSAFixType
        if fixType == 1 && epoch.gsaFixType != nil && epoch.altitude == nil { return nil }
        // Receivers that rotate their sentences (GGA one second, RMC or GLL the next) keep the
        // dimension of their last solution.
        let mode: Fix.Mode =
            if epoch.altitude != nil || fixType == 3 { .threeD } else if fixType == 2 { .twoD } else {
                lastMode ?? .twoD
            }
        lastMode = mode
        let date = resolveDate(timeOfDay)
        return Fix(
            time: date.map { UTCTime(date: $0, timeOfDay: timeOfDay) },
            timeOfDay: timeOfDay,
            latitude: latitude,
            longitude: longitude,
            altitude: epoch.altitude,
            speed: epoch.speed,
            track: epoch.track,
            mode: mode,
            quality: epoch.quality,
            satellitesUsed: epoch.satellitesUsed,
            hdop: epoch.hdop,
            accuracy: accuracyModel.horizontalAccuracy(
                gstError: epoch.gstError, hdop: epoch.hdop, quality: epoch.quality))
    }

    /// The epoch's own date, else the last known one, moved to the next day when the time of day
    /// wrapped past midnight since.
    private mutating func resolveDate(_ timeOfDay: TimeOfDay) -> CivilDate? {
        if let date = epoch.date { return date }
        guard var date = lastDate else { return nil }
        if timeOfDay.milliseconds + TimeOfDay.millisecondsPerDay / 2 < lastDateTimeOfDay.milliseconds {
            date = CivilDate(daysSinceEpoch: date.daysSinceEpoch + 1)
            lastDate = date
            lastDateTimeOfDay = timeOfDay
        }
        return date
    }

    static let metresPerSecondPerKnot = 1852.0 / 3600.0
}

/// The time of a receiver cycle that produced no fix.
public struct EpochTime: Equatable, Sendable, BitwiseCopyable {
    /// Nil until the receiver has sent a date.
    public var time: UTCTime?
    public var timeOfDay: TimeOfDay
    /// What the receiver said of jamming and spoofing, as on a fix (`Fix.receiverFlags`): a
    /// jammed receiver says so most when it has no fix left.
    public var receiverFlags = ReceiverIntegrityFlags.unknown

    /// Public for sources that are not NMEA (gpsd's TPV reports without a fix).
    public init(time: UTCTime?, timeOfDay: TimeOfDay) {
        self.time = time
        self.timeOfDay = timeOfDay
    }
}

/// What one cycle has said so far.
struct Epoch: Sendable {
    var timeOfDay: TimeOfDay?
    var lastTimedAddress: SentenceAddress?
    var close = EpochClose.open
    var date: CivilDate?
    var latitude: Double?
    var longitude: Double?
    var altitude: Double?
    var speed: Double?
    var track: Double?
    var quality: Int?
    var satellitesUsed: Int?
    var hdop: Double?
    var gstError: Double?
    var gsaFixType: Int?

    /// The date as the receiver sent it, when the rollover rule moved it.
    var rolledForwardFrom: CivilDate?

    mutating func setDate(_ reported: CivilDate, _ rollover: WeekRollover) {
        let resolved = rollover.resolve(reported)
        date = resolved
        rolledForwardFrom = resolved == reported ? nil : reported
    }

    mutating func setPosition(_ latitude: Double?, _ longitude: Double?) {
        guard let latitude, let longitude else { return }
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Whether an epoch's fix is out yet, and what sent it: a later sentence of the same epoch means
/// something different in each case.
enum EpochClose: Sendable {
    case open
    /// By its time change or its learned cycle ender.
    case atEnd
    /// By the line going quiet.
    case onQuiet
    /// The first fix of a connection, on the sentence that completed its position.
    case atFirstPosition

    var emitted: Bool {
        switch self {
        case .open: false
        case .atEnd, .onQuiet, .atFirstPosition: true
        }
    }
}
