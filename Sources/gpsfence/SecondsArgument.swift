import ArgumentParser

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
        guard let unit = argument.last, let number = Double(argument.dropLast()), number.isFinite else { return nil }
        switch unit {
        case "s": value = number
        case "m": value = number * 60
        case "h": value = number * 3600
        case "d": value = number * 86_400
        default: return nil
        }
    }
}
