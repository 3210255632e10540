extension UTCTime {
    /// Parses the event time format, `2026-02-03T10:15:02.000Z` (fraction optional).
    public init?(iso text: String) {
        let characters = Array(text.utf8)
        guard characters.count >= 20, characters.last == UInt8(ascii: "Z"),
            let date = CivilDate(iso: String(decoding: characters[0..<10], as: UTF8.self)), date.isValid,
            characters[10] == UInt8(ascii: "T")
        else { return nil }
        let clock = String(decoding: characters[11..<(characters.count - 1)], as: UTF8.self).split(separator: ":")
        guard clock.count == 3, let hours = Int(clock[0]), let minutes = Int(clock[1]), let seconds = Double(clock[2]),
            (0..<24).contains(hours), (0..<60).contains(minutes), seconds >= 0, seconds < 61
        else { return nil }
        let milliseconds = (hours * 3600 + minutes * 60) * 1000 + Int((seconds * 1000).rounded())
        self.init(date: date, timeOfDay: TimeOfDay(milliseconds: milliseconds))
    }
}
