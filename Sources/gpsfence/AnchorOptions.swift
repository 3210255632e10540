import ArgumentParser
import Fences
import Jobs
import LiveLoop
import Tools

/// The anchor watch of `run` and `replay` (docs/running.md, "At anchor").
struct AnchorOptions: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Anchor watch: a circle of this many metres (id 'anchor') at the first usable fix; kept across restarts.",
            valueName: "metres"), transform: DecimalNumber.read)
    var anchor: Double?

    @Option(help: ArgumentHelp("Drop the anchor circle here instead of at the first usable fix.", valueName: "lat,lon"))
    var anchorAt: String?

    @Flag(help: "Forget the saved anchor and drop it again at the first usable fix.")
    var reanchor = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "A warning (anchor_warning, not an alarm) when the boat first gets this share of the radius from the anchor, e.g. 80.",
            valueName: "percent"), transform: DecimalNumber.read)
    var anchorWarn: Double?

    func validate() throws {
        if let anchor, let problem = Limits.checkMetres("--anchor", anchor) {
            throw ValidationError(.outOfRange(problem))
        }
        if anchor == nil, anchorAt != nil || reanchor {
            throw ValidationError(
                .companionMissing(.option(anchorAt != nil ? "--anchor-at" : "--reanchor", goesWith: "--anchor RADIUS")))
        }
        if anchorAt != nil, reanchor { throw ValidationError(.conflict(.exclusive("--reanchor", "--anchor-at"))) }
        if let anchorWarn {
            guard anchor != nil else {
                throw ValidationError(.companionMissing(.option("--anchor-warn", goesWith: "--anchor RADIUS")))
            }
            guard anchorWarn.isFinite, anchorWarn > 0, anchorWarn < 100 else {
                throw ValidationError(.notAPercentage(option: "--anchor-warn", value: anchorWarn))
            }
        }
        if let anchorAt, Self.position(anchorAt) == nil {
            throw ValidationError(.malformed(option: "--anchor-at", value: anchorAt, wanted: .position))
        }
    }

    /// `LAT,LON` in decimal degrees, within range.
    static func position(_ text: String) -> (lat: Double, lon: Double)? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
            let lon = Double(parts[1].trimmingCharacters(in: .whitespaces)),
            (-90...90).contains(lat), (-180...180).contains(lon)
        else { return nil }
        return (lat, lon)
    }

    var layers: FenceLayerOptions {
        var layers = FenceLayerOptions()
        layers.anchorRadius = anchor
        layers.anchorAt = anchorAt.flatMap(Self.position)
        layers.reanchor = reanchor
        layers.anchorWarning = anchorWarn.map { $0 / 100 }
        return layers
    }
}
