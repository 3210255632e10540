import ArgumentParser
import Delivery
import FenceImport
import Fences
import Jobs
import Presentation

extension Fences {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Make a fence file from OpenStreetMap, KML, KMZ or GPX.",
            discussion: """
                Reads each SOURCE (an OpenStreetMap extract, .osm.pbf or .osm; KML or KMZ from Google Earth \
                or My Maps; GPX) and writes one GeoJSON fence file that 'run' loads, replacing \
                --output only once every source was read. From OpenStreetMap, say what to keep: \
                --clearances (maxheight: low bridges and tunnels), --speed-limits (maxspeed) or \
                --select. A summary of what was kept and skipped goes to standard error \
                (docs/fences.md, "Importing fences").

                Examples:
                  gpsfence fences import bayern-latest.osm.pbf --clearances \\
                    --output bridges.geojson
                  gpsfence fences import "My Places.kmz" --output places.geojson
                """
        )

        @Argument(help: ArgumentHelp("Files to read: .osm.pbf, .osm, .kml, .kmz, .gpx.", valueName: "source"))
        var sources: [String]

        @Option(help: ArgumentHelp("The GeoJSON fence file to write.", valueName: "file"))
        var output: String

        @Flag(help: "OSM maxheight: corridors and circles with a 'clearance' for --vehicle-height.")
        var clearances = false

        @Flag(help: "OSM maxspeed: corridors with a 'speed_limit_kmh'.")
        var speedLimits = false

        @Flag(
            help:
                "OSM maxweight, maxwidth, maxlength, maxaxleload, hgv, maxspeed:hgv: fences with a truck's restrictions for --vehicle-weight and the rest."
        )
        var truckRestrictions = false

        @Option(
            help: ArgumentHelp(
                "OSM elements with this tag (any value, or one of the values given); repeatable.",
                valueName: "key[=value[,value...]]"))
        var select: [String] = []

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Radius in metres of every circle and corridor (default: from the data).", valueName: "m"),
            transform: DecimalNumber.read)
        var radius: Double?

        @Option(help: ArgumentHelp("Keep only fences with a vertex inside.", valueName: "s,w,n,e"))
        var bbox: String?

        func validate() throws {
            if let radius, let problem = Limits.checkMetres("--radius", radius) {
                throw ValidationError(.outOfRange(problem))
            }
            for text in select where TagSelection(parsing: text) == nil {
                throw ValidationError(.malformed(option: "--select", value: text, wanted: .tagSelection))
            }
            if let bbox, BoundingBox(parsing: bbox) == nil {
                throw ValidationError(.malformed(option: "--bbox", value: bbox, wanted: .boundingBox))
            }
        }

        func run() throws {
            var settings = ImportSettings(
                propertyForms: FencePropertyForms(
                    numberKeys: FenceProperties.numberKeys,
                    measures: FenceProperties.measureKeys.mapValues { form in
                        FencePropertyForms.Measure(read: { form.measure($0) }, forms: form.measureForms ?? "")
                    }, choices: FenceProperties.choiceKeys.mapValues(Set.init),
                    conditionals: FenceProperties.conditionalKeys.mapValues { quantity in
                        FencePropertyForms.Conditional { text in
                            let parts = ConditionalLimit.parts(text, quantity: quantity)
                            return (parts.read, parts.unreadable.map { ($0.text, $0.cause.text) })
                        }
                    }))
            settings.clearances = clearances
            settings.speedLimits = speedLimits
            settings.truckRestrictions = truckRestrictions
            settings.selections = select.compactMap(TagSelection.init(parsing:))
            settings.radius = radius
            settings.boundingBox = bbox.flatMap(BoundingBox.init(parsing:))
            let job = FenceImportJob(sources: sources, output: output, settings: settings)
            for line in try job.run() { OutputWriter.standardError.write(line: "gpsfence: \(line)") }
        }
    }
}
