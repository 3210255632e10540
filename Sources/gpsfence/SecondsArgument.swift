import ArgumentParser
import Fences
import Presentation

/// A duration on the command line: a bare number of seconds (`90`) or a number with a unit, `90s`,
/// `5m`, `2h`, `7d`, as `report --since` takes them (docs/running.md), the number with a decimal
/// point or comma (`1.5m`, `1,5m`). Every option that takes seconds takes this, through `read`.
struct Seconds: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        guard let seconds = try? Self.read(argument) else { return nil }
        self = seconds
    }

    init(_ value: Double) { self.value = value }

    /// `text` as a duration, or an error that says why it is none.
    static func read(_ text: String) throws -> Seconds {
        // `inf` and `nan` end in a letter but are numbers, which the option's bounds then refuse
        // by name ("must be 0 to ... seconds, not inf"), not units.
        if let unit = text.last, unit.isLetter, Double(text) == nil {
            guard let perUnit = HumanText.seconds(withUnit: "1\(unit)") else {
                throw ValidationError(.number(.notAUnitOfTime(unit)))
            }
            return Seconds(try DecimalNumber.read(String(text.dropLast())) * perUnit)
        }
        return Seconds(try DecimalNumber.read(text))
    }

    var defaultValueDescription: String { HumanText.duration(value) }
}
