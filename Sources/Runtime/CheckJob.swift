import Alerts
#if canImport(Glibc)
import Glibc
#endif
import Geofence

/// `gpsfence check` (SPEC §9): the fences containing one point (with the nearest fences and their
/// distances), or, for a file of `lat,lon` lines, one JSON array of fence ids per point in the
/// peer's format (`../shared/bench/README.md`), ids in file order.
public struct CheckJob {
    public var fencesPath: String
    /// How many nearest fences to list for a single point.
    public var nearest = 5
    /// Load and query timings and memory on standard error.
    public var stats = false

    public init(fencesPath: String) { self.fencesPath = fencesPath }

    public func run(point: GeoPoint?, pointsPath: String?) throws {
        let t0 = monotonicSeconds()
        let set = try FenceFile.load(fencesPath)
        let t1 = monotonicSeconds()
        if stats {
            OutputWriter.standardError.write(
                line: "loaded \(set.count) fences in \(format3(t1 - t0)) s; resident \(memoryStatus())")
        }
        if let point {
            checkOne(set, lat: point.lat, lon: point.lon)
        } else if let pointsPath {
            try checkPoints(set, path: pointsPath, loadedAt: t1)
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
        var s = "id \(HumanText.json(set.ids[i]))"
        if let name = set.name(i) { s += " \(HumanText.quoted(name))" }
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
        var single = 0.0
        if stats {
            let hits = FenceHits()
            var found = 0
            let s0 = monotonicSeconds()
            for p in list {
                set.fences(containingLat: p.lat, lon: p.lon, into: hits)
                found &+= hits.count
            }
            single = monotonicSeconds() - s0
            if found != batch.fences.count { OutputWriter.standardError.write(line: "single and batch results differ") }
        }
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
                    + "one at a time \(format3(single)) s (\(list.count > 0 && single > 0 ? Int(Double(list.count) / single) : 0) points/s); "
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

    /// `lat,lon` per line; blank lines and lines starting with '#' are skipped. Numbers are read
    /// with `strtod` straight from the file bytes (100k points in a few milliseconds).
    func readPoints(_ path: String) throws -> [GeoPoint] {
        guard let file = fopen(path, "r") else {
            throw InputError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        var bytes: [CChar] = []
        var chunk = [CChar](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        fclose(file)
        bytes.append(0)
        var out: [GeoPoint] = []
        out.reserveCapacity(bytes.count / 24)
        var number = 0
        try bytes.withUnsafeBufferPointer { b in
            let base = b.baseAddress!
            var pos = 0
            let end = b.count - 1
            while pos < end {
                number += 1
                var lineEnd = pos
                while lineEnd < end && base[lineEnd] != 0x0A { lineEnd += 1 }
                defer { pos = lineEnd + 1 }
                var first = pos
                while first < lineEnd && (base[first] == 0x20 || base[first] == 0x09 || base[first] == 0x0D) { first += 1 }
                if first == lineEnd || base[first] == 0x23 { continue }
                func bad() -> InputError {
                    let text = String(decoding: UnsafeRawBufferPointer(start: base + pos, count: min(lineEnd - pos, 60)),
                                      as: UTF8.self).filter { $0 != "\r" }
                    return InputError(message: "\(path): line \(number): want 'lat,lon', found '\(text)'")
                }
                var stop: UnsafeMutablePointer<CChar>?
                let lat = strtod(base + first, &stop)
                guard let s1 = stop, s1 != UnsafeMutablePointer(mutating: base + first) else { throw bad() }
                var p = s1 - UnsafeMutablePointer(mutating: base)
                while p < lineEnd && (base[p] == 0x20 || base[p] == 0x09) { p += 1 }
                guard p < lineEnd, base[p] == 0x2C else { throw bad() }
                p += 1
                let lon = strtod(base + p, &stop)
                guard let s2 = stop, s2 != UnsafeMutablePointer(mutating: base + p) else { throw bad() }
                p = s2 - UnsafeMutablePointer(mutating: base)
                while p < lineEnd && (base[p] == 0x20 || base[p] == 0x09 || base[p] == 0x0D) { p += 1 }
                guard p == lineEnd else { throw bad() }
                guard lat.isFinite, lat >= -90, lat <= 90, lon.isFinite, lon >= -180, lon <= 180 else {
                    throw InputError(message: "\(path): line \(number): point (\(lat), \(lon)) is out of range")
                }
                out.append(GeoPoint(lat: lat, lon: lon))
            }
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
    let ms = Limits.int((v * 1000).rounded())
    let frac = String(ms % 1000)
    return "\(ms / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac)"
}

func formatMetres(_ v: Double) -> String {
    let dm = Limits.int((v * 10).rounded())
    let sign = dm < 0 ? "-" : ""
    return "\(sign)\(abs(dm) / 10).\(abs(dm) % 10)"
}

/// "VmRSS now, VmHWM peak" from /proc/self/status (Linux), for --stats.
func memoryStatus() -> String {
    guard let f = fopen("/proc/self/status", "r") else { return "unknown" }
    defer { fclose(f) }
    var rss = "?", peak = "?"
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let text = String(cString: line)
        let value = text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "?"
        if text.hasPrefix("VmRSS:") { rss = value }
        if text.hasPrefix("VmHWM:") { peak = value }
    }
    let mb = { (kb: String) in Int(kb).map { String($0 / 1024) } ?? kb }
    return "\(mb(rss)) MB (peak \(mb(peak)) MB)"
}
