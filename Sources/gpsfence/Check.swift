import ArgumentParser
import Geofence
import Runtime

#if canImport(Glibc)
import Glibc
#endif

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Which fences contain a point, or each point of a file.",
        discussion: """
            With LAT LON: the fences containing that point, then the nearest fences with their \
            distances (negative: inside, metres to the boundary).
            With --points FILE: one line per 'lat,lon' line of FILE ('-' for standard input), the \
            JSON array of the ids of the fences containing the point, in fence file order.

            Examples:
              gpsfence check --fences fences.geojson 41.8781 -87.6298
              gpsfence check --fences fences.geojson --points points.csv > hits.jsonl
            """
    )

    @Option(help: ArgumentHelp("Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m'.", valueName: "file"))
    var fences: String

    @Option(help: ArgumentHelp("File of 'lat,lon' lines to check ('-' for standard input).", valueName: "file"))
    var points: String?

    @Option(help: "How many nearest fences to list for a single point.")
    var nearest = 5

    @Flag(help: "Print load and query timings on standard error.")
    var stats = false

    @Argument(help: ArgumentHelp("Latitude and longitude in degrees (negative allowed: '-- 41.9 -87.6' or '41.9 -87.6').",
                                 valueName: "lat lon"))
    var coordinates: [Double] = []

    func validate() throws {
        if points != nil && !coordinates.isEmpty {
            throw ValidationError("give either LAT LON or --points FILE, not both")
        }
        if points == nil && coordinates.count != 2 {
            throw ValidationError("give a point as LAT LON, or --points FILE")
        }
        if coordinates.count == 2 {
            try checkRange(lat: coordinates[0], lon: coordinates[1])
        }
    }

    func checkRange(lat: Double, lon: Double) throws {
        guard lat.isFinite, lat >= -90, lat <= 90 else { throw ValidationError("latitude \(lat) is out of range [-90, 90]") }
        guard lon.isFinite, lon >= -180, lon <= 180 else {
            throw ValidationError("longitude \(lon) is out of range [-180, 180]")
        }
    }

    func run() throws {
        try runReportingInputErrors {
            let t0 = monotonicSeconds()
            let set: FenceSet
            do { set = try FenceSet.load(path: fences) } catch let e as FenceLoadError { throw InputError(message: e.message) }
            let t1 = monotonicSeconds()
            if stats {
                OutputWriter.standardError.write(line: "loaded \(set.count) fences in \(String(format3(t1 - t0))) s")
            }
            if let points {
                try checkPoints(set, path: points, loadedAt: t1)
            } else {
                checkOne(set, lat: coordinates[0], lon: coordinates[1])
            }
        }
    }

    func checkOne(_ set: FenceSet, lat: Double, lon: Double) {
        let out = OutputWriter.standardOutput
        let hits = FenceHits()
        set.fences(containingLat: lat, lon: lon, into: hits)
        if hits.isEmpty {
            out.write(line: "(\(lat), \(lon)) is inside no fence")
        } else {
            out.write(line: "(\(lat), \(lon)) is inside \(hits.count) fence\(hits.count == 1 ? "" : "s"):")
            for i in hits.array { out.write(line: "  " + describe(set, i)) }
        }
        let near = set.nearestFences(lat: lat, lon: lon, count: nearest)
        if !near.isEmpty {
            out.write(line: "nearest fences (metres to the boundary, negative inside):")
            for (i, d) in near { out.write(line: "  \(formatMetres(d))  " + describe(set, i)) }
        }
        out.flush()
    }

    func describe(_ set: FenceSet, _ i: Int) -> String {
        var s = "id \(set.ids[i].json)"
        if let name = set.name(i) { s += " \(JSONText.quoted(name))" }
        if let c = set.circle(i) { s += " (circle r=\(formatMetres(c.radius)) m)" } else { s += " (polygon)" }
        return s
    }

    func checkPoints(_ set: FenceSet, path: String, loadedAt t1: Double) throws {
        let list: [GeoPoint]
        do { list = try readPoints(path == "-" ? "/dev/stdin" : path) } catch let e as InputError { throw e }
        let t2 = monotonicSeconds()
        var batch = FenceBatchHits()
        set.fences(containing: list, into: &batch, scratch: FenceHits())
        let t3 = monotonicSeconds()
        let idText = set.ids.map { Array($0.json.utf8) }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for p in 0..<batch.pointCount {
            buffer.append(0x5B)
            var first = true
            for f in batch.fences(ofPoint: p) {
                if !first { buffer.append(0x2C) }
                first = false
                buffer.append(contentsOf: idText[Int(f)])
            }
            buffer.append(0x5D)
            buffer.append(0x0A)
            if buffer.count > (1 << 20) - 4096 { writeOut(&buffer) }
        }
        writeOut(&buffer)
        if stats {
            let q = t3 - t2
            OutputWriter.standardError.write(
                line: "read \(list.count) points in \(format3(t2 - t1)) s; queried in \(format3(q)) s "
                    + "(\(list.count > 0 && q > 0 ? Int(Double(list.count) / q) : 0) points/s, batch); "
                    + "\(batch.fences.count) hits")
        }
    }

    func writeOut(_ buffer: inout [UInt8]) {
        OutputWriter.standardOutput.flush()
        var done = 0
        while done < buffer.count {
            let n = buffer[done...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if n <= 0 { if errno == EINTR { continue }; break }
            done += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `lat,lon` per line; blank lines and lines starting with '#' are skipped.
    func readPoints(_ path: String) throws -> [GeoPoint] {
        guard let file = fopen(path, "r") else {
            throw InputError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var out: [GeoPoint] = []
        var line: UnsafeMutablePointer<CChar>?
        var cap = 0
        var number = 0
        defer { free(line) }
        while getline(&line, &cap, file) > 0 {
            number += 1
            let text = String(cString: line!)
            let trimmed = text.filter { $0 != "\n" && $0 != "\r" }
            if trimmed.allSatisfy({ $0 == " " || $0 == "\t" }) || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                let lat = Double(parts[0].trimmingCharacters(" \t")),
                let lon = Double(parts[1].trimmingCharacters(" \t"))
            else {
                throw InputError(message: "\(path): line \(number): want 'lat,lon', found '\(trimmed.prefix(60))'")
            }
            guard lat.isFinite, lat >= -90, lat <= 90, lon.isFinite, lon >= -180, lon <= 180 else {
                throw InputError(message: "\(path): line \(number): point (\(lat), \(lon)) is out of range")
            }
            out.append(GeoPoint(lat: lat, lon: lon))
        }
        return out
    }
}

extension Substring {
    func trimmingCharacters(_ set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func format3(_ v: Double) -> String {
    let ms = Int((v * 1000).rounded())
    let frac = String(ms % 1000)
    return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}

func formatMetres(_ v: Double) -> String {
    let dm = Int((v * 10).rounded())
    let sign = dm < 0 ? "-" : ""
    return "\(sign)\(abs(dm) / 10).\(abs(dm) % 10)"
}
