import Presentation

/// A weight as road signs and OpenStreetMap's `maxweight` and `maxaxleload` write it
/// (docs/fences.md, "Rules"): a number alone is metric tonnes (`7.5`), or with a unit: `t`, `kg`,
/// `st` (short tons, as signs in the United States mean "tons"), `lt` (long tons), `lbs` or `lb`,
/// `cwt` (hundredweight, 100 lb). One reader for the fence properties and for `--vehicle-weight`
/// and `--vehicle-axle-load`, so that both compare in kilograms.
public enum Weight {
    static let kilogramsPerPound = 0.45359237

    static let units: [(words: [String], kilograms: Double)] = [
        (["t", "tonnes", "tonne", "tons metric"], 1000),
        (["kg"], 1),
        (["st", "short tons"], 2000 * kilogramsPerPound),
        (["lt", "long tons"], 2240 * kilogramsPerPound),
        (["lbs", "lb"], kilogramsPerPound),
        (["cwt"], 100 * kilogramsPerPound),
    ]

    /// The weight in kilograms, or nil for text that is none of the forms above (or not above zero).
    public static func kilograms(_ text: String) -> Double? {
        var reader = Height.Reader(text)
        reader.skipSpaces()
        guard let number = reader.number() else { return nil }
        reader.skipSpaces()
        if reader.atEnd { return Height.positive(number * 1000) }
        for unit in units where reader.word(unit.words) {
            reader.skipSpaces()
            return reader.atEnd ? Height.positive(number * unit.kilograms) : nil
        }
        return nil
    }

    /// What a bad weight is told: the forms that are read.
    public static let forms = "a weight like 7.5 (tonnes), 7.5 t, 12000 kg, 10 st, 20000 lbs or 150 cwt"

    /// `7.5 t`, as a sign in tonnes shows it (one decimal when there is one), rounded down: a limit.
    public static func text(_ kilograms: Double) -> String {
        let tonnes = MeasureRounding.down.whole(kilograms / 100) / 10
        return (tonnes == tonnes.rounded() ? "\(Limits.int(tonnes))" : "\(tonnes)") + " t"
    }

    /// `7.5 tonnes`, as a voice says it.
    public static func spoken(_ kilograms: Double) -> String {
        text(kilograms).dropLast(2) + " tonnes"
    }
}
