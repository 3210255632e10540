import ArgumentParser
import Fences
import LiveLoop
import Presentation
import Web

/// `run --web [ADDR:]PORT` and its password (docs/running.md, "The page on a phone").
struct WebOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve a live page (map, numbers, the alarm's Acknowledge) on [ADDRESS:]PORT; 127.0.0.1 unless an address is given, which needs --web-password-file.",
            valueName: "[address:]port"))
    var web: String?

    @Option(
        help: ArgumentHelp(
            "A private file (mode 600) whose first line is the page's password (HTTP basic, any user name).",
            valueName: "file"))
    var webPasswordFile: String?

    /// The settings, or nil without --web. Bad input (exit status 2) before anything starts.
    func settings(format: HumanFormat) throws -> WebSettings? {
        guard let web else {
            if webPasswordFile != nil {
                throw InputError.option(
                    .companionMissing(.option("--web-password-file", goesWith: "--web [ADDRESS:]PORT")))
            }
            return nil
        }
        var settings = try WebSettings.parse(web, passwordFile: webPasswordFile)
        settings.format = format
        return settings
    }
}
