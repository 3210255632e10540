import Delivery
import Dispatch
import Fences
import JSONOutput
import LiveLoop
import NMEA
import Platform
import Presentation
import SystemPackage

/// `gpsfence check` (docs/running.md): the fences containing one point (with the nearest fences and their
/// distances), or, for a file of `lat,lon` lines, one JSON array of fence ids per point in the
/// peer's format (`../shared/bench/README.md`), ids in file order.
public struct CheckJob {
    public var fencesPath: String
    /// How many nearest fences to list for a single point.
    public var nearest = 5
    /// Load and query timings and memory on standard error.
    public var stats = false
    /// A single point's answer as one JSON object (docs/formats.md, "check --json").
    public var json = false

    public init(fencesPath: String) { self.fencesPath = fencesPath }

    public func run(point: GeoPoint?, pointsPath: String?) throws {
        let t0 = monotonicSeconds()
        // A pipe or a terminal is answered as its lines come, once the fences are loaded.
        let stream = pointsPath.flatMap { PointsStream.isStream(path: $0) ? $0 : nil }
        // A points file is parsed on a second thread while the fences load.
        let early = stream == nil ? pointsPath.map { EarlyPoints(path: $0) } : nil
        let set: FenceSet
        do {
            set = try FenceFile.load(fencesPath)
        } catch {
            early?.wait()
            throw error
        }
        let t1 = monotonicSeconds()
        if stats {
            OutputWriter.standardError.write(
                line:
                    "loaded \(set.count) fences in \(format3(t1 - t0)) s (index \(set.indexBytes >> 10) KB); resident \(memoryStatus())"
            )
        }
        if let point, json {
            OutputWriter.standardOutput.write(line: Self.json(set, lat: point.lat, lon: point.lon, nearest: nearest))
            OutputWriter.standardOutput.flush()
        } else if let point {
            checkOne(set, lat: point.lat, lon: point.lon)
        } else if let early {
            try checkPoints(set, points: early, loadedAt: t1)
        } else if let stream {
            try checkStream(set, path: stream)
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
            out.write(line: "nearest fences (distance to the boundary, negative inside):")
            for (i, d) in near { out.write(line: "  \(HumanText.distance(d))  " + describe(set, i)) }
        }
        out.flush()
        if let warning = FencePlausibility.warning(set, lat: lat, lon: lon) {
            OutputWriter.standardError.write(line: "gpsfence: warning: " + warning)
        }
    }

    /// `{"lat":...,"lon":...,"inside":[ids],"nearest":[{"id":...,"name":...,"shape":...,
    /// "radius":...,"distance":...}],"warning":...}`: ids in file order, nearest first, distances in
    /// metres to the boundary (negative inside), `warning` null unless the fences look far or swapped.
    static func json(_ set: FenceSet, lat: Double, lon: Double, nearest: Int) -> String {
        let hits = FenceHits()
        set.fences(containingLat: lat, lon: lon, into: hits)
        var line = JSONLine()
        line.add("lat", lat, decimals: JSONPrecision.coordinate)
        line.add("lon", lon, decimals: JSONPrecision.coordinate)
        line.addArray("inside", json: hits.array.map { set.ids[$0].json })
        let near = set.nearestFences(lat: lat, lon: lon, count: nearest).map { (fence, distance) in
            var entry = JSONLine()
            entry.addRaw("id", json: set.ids[fence].json)
            entry.add("name", set.name(fence))
            let circle = set.circle(fence)
            entry.add("shape", circle == nil ? "polygon" : "circle")
            entry.add("radius", circle?.radius, decimals: JSONPrecision.metres)
            entry.add("distance", distance, decimals: JSONPrecision.metres)
            return entry.string
        }
        line.addArray("nearest", json: near)
        line.add("warning", FencePlausibility.warning(set, lat: lat, lon: lon))
        return line.string
    }

    func describe(_ set: FenceSet, _ i: Int) -> String {
        var s = "id \(set.ids[i].json)"
        if let name = set.name(i) { s += " \(JSONLine.quoted(name))" }
        switch set.kinds[i] {
        case .circle:
            if let c = set.circle(i) { s += " (circle r=\(formatMetres(c.radius)) m)" }
        case .polygon:
            s += " (polygon)"
        case .corridor:
            if let c = set.corridor(i) { s += " (corridor r=\(formatMetres(c.radius)) m)" }
        }
        return s
    }

    func checkStream(_ set: FenceSet, path: String) throws {
        let descriptor: FileDescriptor
        if path == "-" {
            descriptor = .standardInput
        } else {
            do { descriptor = try FileDescriptor.open(path, .readOnly, options: .closeOnExec) } catch {
                throw InputError.unreadable(path: path, cause: .error(error))
            }
        }
        defer { if path != "-" { try? descriptor.close() } }
        OutputWriter.standardOutput.flush()
        let stream = PointsStream(
            set: set, ids: IDTexts(set.ids), descriptor: descriptor, name: path == "-" ? "standard input" : path)
        _ = try stream.run()
    }

    func checkPoints(_ set: FenceSet, points early: EarlyPoints, loadedAt t1: Double) throws {
        let read = early.result()
        let list = read.points
        let t2 = monotonicSeconds()
        // The points are queried by as many threads as there are cores (`PointBatch`), then each
        // thread formats the lines of one slice of the input.
        let idText = IDTexts(set.ids)
        let workers = list.count < 50_000 ? 1 : max(1, min(onlineProcessorCount(), 8))
        let batch = list.withUnsafeBufferPointer { PointBatch(set, points: $0, threads: workers) }
        let work = LineWork(batch: batch, ids: idText, slices: PointSlices(count: list.count, parts: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { work.run($0) }
        let outputs = work.outputs
        let hitCount = batch.totalHits
        let t3 = monotonicSeconds()
        OutputWriter.standardOutput.flush()
        for json in outputs { json?.withUnsafeBytes { writeAllToStandardOutput($0) } }
        // The points before a bad line are answered first: the error then says where to resume.
        if let problem = read.problem { throw problem }
        let t4 = monotonicSeconds()
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
            if found != hitCount {
                OutputWriter.standardError.write(line: "single and batch results differ")
            }
        }
        if stats {
            let q = t3 - t2
            OutputWriter.standardError.write(
                line: "read \(list.count) points in \(format3(t2 - t1)) s; queried in \(format3(q)) s "
                    + "(\(list.count > 0 && q > 0 ? Int(Double(list.count) / q) : 0) points/s, batch, "
                    + "\(workers) thread\(workers == 1 ? "" : "s")); written in \(format3(t4 - t3)) s; "
                    + "one at a time \(format3(single)) s (\(list.count > 0 && single > 0 ? Int(Double(list.count) / single) : 0) points/s); "
                    + "\(hitCount) hits")
        }
    }

}

/// `write(2)` until all is written (standard output may be a pipe).
func writeAllToStandardOutput(_ bytes: UnsafeRawBufferPointer) {
    _ = writeAll(FileDescriptor.standardOutput.rawValue, bytes)
}

/// The lines of `check --points`, one slice of the input per worker. Each worker writes only its
/// own slot, and the caller reads them after `concurrentPerform` has returned (which orders the
/// writes before the reads), so the unchecked `Sendable` is sound.
final class LineWork: @unchecked Sendable {
    let batch: PointBatch
    let ids: IDTexts
    let slices: PointSlices
    let outputSlots: UnsafeMutablePointer<JSONBuffer?>

    init(batch: PointBatch, ids: IDTexts, slices: PointSlices) {
        self.batch = batch
        self.ids = ids
        self.slices = slices
        outputSlots = .allocate(capacity: slices.parts)
        outputSlots.initialize(repeating: nil, count: slices.parts)
    }

    deinit {
        outputSlots.deinitialize(count: slices.parts)
        outputSlots.deallocate()
    }

    var outputs: [JSONBuffer?] { Array(UnsafeBufferPointer(start: outputSlots, count: slices.parts)) }

    func run(_ w: Int) {
        let range = slices.range(w)
        let json = JSONBuffer(capacity: range.count * 8 + 64)
        for p in range {
            json.beginArray()
            for f in batch.fences(ofPoint: p) {
                json.beginRawValue()
                json.append(ids.text(Int(f)))
            }
            json.endArray()
            json.endLine()
        }
        assert(outputSlots[w] == nil, "a slice of check --points written twice")
        outputSlots[w] = json
    }
}

/// Every fence's id as JSON text, back to back in one buffer: `text(i)` is a view, so writing an
/// id costs no reference counting (an array of arrays retained each id it wrote, a tenth of the
/// query's time).
final class IDTexts: @unchecked Sendable {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let ends: UnsafeMutableBufferPointer<Int>

    /// Each id is written once as it is made, in its final place: a million ids as a list of
    /// strings first took 48 MB more at the peak of a `check` over a country's roads, and writing
    /// them to an array copied afterwards 20 MB more again (OSM ids of 9 or 10 digits).
    init(_ ids: FenceIDColumn) {
        ends = .allocate(capacity: ids.count + 1)
        ends[0] = 0
        // room for 24 bytes an id (address space, until written), doubled when short
        var capacity = max(ids.count * 24, 64)
        var base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        var used = 0
        for (i, id) in ids.enumerated() {
            var json = id.json
            json.withUTF8 { utf8 in
                if used + utf8.count > capacity {
                    capacity = max(2 * capacity, used + utf8.count)
                    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                    larger.initialize(from: base, count: used)
                    base.deallocate()
                    base = larger
                }
                if let from = utf8.baseAddress { (base + used).initialize(from: from, count: utf8.count) }
                used += utf8.count
            }
            ends[i + 1] = used
        }
        bytes = UnsafeMutableBufferPointer(start: base, count: used)
    }

    deinit {
        bytes.deallocate()
        ends.deallocate()
    }

    @inline(__always)
    func text(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(bytes)[ends[i]..<ends[i + 1]])
    }
}

/// A points file parsed on another thread (`PointsFile.readUpToProblem`), started at once.
final class EarlyPoints: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the parsing thread before `done` is signalled, read after waiting.
    private var outcome = PointsParse(points: [], problem: nil)

    /// `-`: standard input redirected from a regular file.
    init(path: String) {
        DispatchQueue.global().async {
            self.outcome = PointsFile.readUpToProblem(path: path == "-" ? "/dev/stdin" : path)
            self.done.signal()
        }
    }

    func wait() {
        done.wait()
        done.signal()
    }

    func result() -> PointsParse {
        wait()
        return outcome
    }
}

/// `count` items cut into `parts` nearly equal consecutive ranges.
struct PointSlices {
    let count: Int
    let parts: Int
    func range(_ i: Int) -> Range<Int> { (count * i / parts)..<(count * (i + 1) / parts) }
}

extension Substring {
    func trimmingCharacters(_ set: String) -> Substring {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return s
    }
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
    guard let status = try? readWholeFile("/proc/self/status") else { return "unknown" }
    var rss = "?"
    var peak = "?"
    for line in String(decoding: status, as: UTF8.self).split(separator: "\n") {
        let text = String(line)
        let value =
            text.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? "?"
        if text.hasPrefix("VmRSS:") { rss = value }
        if text.hasPrefix("VmHWM:") { peak = value }
    }
    let mb = { (kb: String) in Int(kb).map { String($0 / 1024) } ?? kb }
    return "\(mb(rss)) MB (peak \(mb(peak)) MB)"
}
