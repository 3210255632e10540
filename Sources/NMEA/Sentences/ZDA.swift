/// ZDA: time and full date.
///
/// `$GPZDA,hhmmss.ss,dd,mm,yyyy,zh,zm*hh`
public struct ZDA: Equatable, Sendable {
    public var time: TimeOfDay?
    /// The time field is there but is no time of day (`999999.00`, `120003.00x`): the sentence
    /// belongs to no epoch, and fix assembly drops it whole.
    public var timeIsInvalid = false
    public var day: Int?
    public var month: Int?
    public var year: Int?
    public var localZoneHours: Int?
    public var localZoneMinutes: Int?

    public init(_ f: borrowing Fields) {
        time = f.timeOfDay(1)
        if time == nil { timeIsInvalid = !f.isEmpty(1) }
        day = f.integer(2)
        month = f.integer(3)
        year = f.integer(4)
        localZoneHours = f.integer(5)
        localZoneMinutes = f.integer(6)
    }

    public var date: CivilDate? {
        guard let day, let month, let year, CivilDate.supportedYears.contains(year), year >= 1980 else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }
}
