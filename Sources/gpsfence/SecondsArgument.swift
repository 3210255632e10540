import ArgumentParser
import Fences
import Presentation

/// A duration on the command line: a bare number of seconds (`90`) or a number with a unit, `90s`,
/// `5m`, `2h`, `7d`, as `report --since` takes them (docs/running.md). Every option that takes
/// seconds takes this.
struct Seconds: ExpressibleByArgument {
    var value: Double

    init?(argument: String) {
        if let plain = Double(argument) {
            value = plain
            return
        }
        guard let seconds = HumanText.seconds(withUnit: argument) else { return nil }
        value = seconds
    }

    init(_ value: Double) { self.value = value }

    var defaultValueDescription: String { HumanText.duration(value) }
}
