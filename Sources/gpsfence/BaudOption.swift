import ArgumentParser
import Serial

/// `--baud N|auto`: nil for auto.
func parseBaud(_ text: String) throws -> BaudRate? {
    if text == "auto" { return nil }
    guard let value = Int(text), let rate = BaudRate(value) else {
        throw ValidationError("--baud wants 'auto' or one of \(BaudRate.supported.map(String.init).joined(separator: ", ")), not '\(text)'")
    }
    return rate
}
