import ArgumentParser
import Fences
import Platform
import Receivers

/// Which receiver to read and how (docs/hardware.md), for `run`, `record` and `doctor`.
struct ReceiverOptions: ParsableArguments {
    @Option(
        help:
            "Device path, 'auto' for the USB GPS found by libudev, or gpsd://[HOST][:PORT][/DEVICE] to read through a running gpsd."
    )
    var device = "auto"

    @Option(help: "Line speed, or 'auto' to detect it (ignored on CDC-ACM and through gpsd).")
    var baud = "auto"

    @Option(
        help: ArgumentHelp(
            "Seconds autobaud listens at each rate before trying the next. (default: 2.5)", valueName: "seconds"),
        transform: DecimalNumber.read)
    var autobaudWindow = 2.5

    func validate() throws {
        if case .failure(let problem) = ReceiverAddress.parse(device) { throw ValidationError(.device(problem)) }
        _ = try rate()
        if let problem = Limits.autobaudWindow(autobaudWindow) { throw ValidationError(.outOfRange(problem)) }
    }

    /// `--device`, parsed: a typo such as `gpsd:/` is bad usage (exit status 2), never a path to open.
    func address() throws(ReceiverAddressError) -> ReceiverAddress { try ReceiverAddress.parse(device).get() }

    /// `--baud N|auto`: nil for auto.
    func rate() throws -> BaudRate? {
        if baud == "auto" { return nil }
        guard let value = Int(baud), let rate = BaudRate(value) else {
            throw ValidationError(
                .notAChoice(option: "--baud", value: baud, choices: ["auto"] + BaudRate.supported.map(String.init)))
        }
        return rate
    }

    var autobaud: Autobaud { Autobaud(window: autobaudWindow) }
}
