import ArgumentParser
import Fences
import Jobs
import LiveLoop
import Platform
import Tools

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Which fences contain a point, or each point of a file.",
        discussion: """
            With LAT LON: the fences containing that point, then the nearest fences with their \
            distances (negative: inside, metres to the boundary).
            With --points FILE: one line per 'lat,lon' line of FILE ('-' for standard input), the \
            JSON array of the ids of the fences containing the point, in fence file order \
            (docs/formats.md). Fence files: docs/fences.md.

            Examples:
              gpsfence check --fences fences.geojson 41.8781 -87.6298
              gpsfence check --fences gyms.csv 41.8781 -87.6298 --nearest 3
              gpsfence check --fences fences.geojson --json 41.8781 -87.6298
              gpsfence check --fences fences.geojson --points points.csv \\
                > hits.jsonl
            """
    )

    @Option(help: ArgumentHelp("Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'.", valueName: "file"))
    var fences: String

    @Option(help: ArgumentHelp("File of 'lat,lon' lines to check ('-' for standard input).", valueName: "file"))
    var points: String?

    @Option(parsing: .unconditional, help: "How many nearest fences to list for a single point.")
    var nearest = 5

    @Flag(help: "For a single point: print the answer as one JSON object (docs/formats.md).")
    var json = false

    @Flag(help: "Print load and query timings on standard error.")
    var stats = false

    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Latitude and longitude in degrees (negative values need no quoting).",
            valueName: "lat lon"))
    var coordinates: [String] = []

    func validate() throws {
        if let problem = Limits.check("--nearest", nearest, 0...1000) { throw ValidationError(.outOfRange(problem)) }
    }

    /// The point from LAT LON; bad usage is a message and exit status 2 (docs/running.md).
    func point() throws -> GeoPoint? {
        // '--' before negative numbers is allowed, and so is the `53.8,-1.55` that maps apps copy
        // (one argument, or `53.8,` `-1.55` as a shell splits `53.8, -1.55`).
        var coordinates: [String] = []
        for argument in self.coordinates where argument != "--" {
            for part in argument.split(separator: ",") {
                let number = String(part.filter { $0 != " " && $0 != "\t" })
                if !number.isEmpty { coordinates.append(number) }
            }
        }
        if points != nil && !coordinates.isEmpty {
            throw InputError.option(.conflict(.pointAndPointsFile))
        }
        if points != nil {
            if json { throw InputError.option(.conflict(.jsonWithPointsFile)) }
            return nil
        }
        guard coordinates.count == 2 else {
            throw InputError.option(.point(coordinates.isEmpty ? .missing : .notTwo(given: coordinates)))
        }
        guard let lat = Double(coordinates[0]), let lon = Double(coordinates[1]) else {
            throw InputError.option(.point(.notNumbers(given: coordinates)))
        }
        guard lat.isFinite, lat >= -90, lat <= 90 else {
            throw InputError.option(.point(.latitude(lat)))
        }
        guard lon.isFinite, lon >= -180, lon <= 180 else {
            throw InputError.option(.point(.longitude(lon)))
        }
        return GeoPoint(lat: lat, lon: lon)
    }

    func run() throws {
        do {
            let single = try point()
            var job = CheckJob(fencesPath: fences)
            job.nearest = nearest
            job.stats = stats
            job.json = json
            try job.run(point: single, pointsPath: points)
        }
    }
}
