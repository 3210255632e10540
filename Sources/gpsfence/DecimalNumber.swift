import ArgumentParser

/// A decimal number on the command line, with a decimal point or a decimal comma (`3.5`, `3,5`),
/// as the fence imports read their numbers. Every option that takes a number with a fraction
/// reads it through `read` (`@Option(transform: DecimalNumber.read)`), so that the refusal says
/// why: a failable `ExpressibleByArgument` could only say that the value is invalid.
///
/// A number with both a comma and a point (`1,234.5`, `1.234,5`) or with several commas
/// (`1,234,567`) is refused rather than guessed: one of the marks is a thousands separator, and a
/// radius or a time read a thousand times too small is worse than one refused.
enum DecimalNumber {
    static func read(_ text: String) throws -> Double {
        let commas = text.filter { $0 == "," }.count
        if commas > 0, text.contains(".") || commas > 1 {
            throw ValidationError(.number(.thousandsSeparator(example: unseparated(text))))
        }
        guard let value = Double(DecimalComma.point(text)) else {
            throw ValidationError(.number(.notANumber))
        }
        return value
    }

    /// `text` with its last mark taken as the decimal point and the others dropped, as an example
    /// of what to write (`1,234.5` -> `1234.5`, `1.234,5` -> `1234.5`).
    static func unseparated(_ text: String) -> String {
        guard let last = text.lastIndex(where: { $0 == "," || $0 == "." }) else { return text }
        let whole = text[..<last].filter { $0 != "," && $0 != "." }
        return whole + "." + text[text.index(after: last)...]
    }
}
