import Fences
import LiveLoop
import Platform
import SystemPackage

/// `check --points` over a pipe or a terminal: each read's whole lines are answered and written
/// before the next read, so a program that writes a point and waits for its answer gets it, and a
/// bad line stops the input after every earlier point was answered.
struct PointsStream {
    let set: FenceSet
    let ids: IDTexts
    let descriptor: FileDescriptor
    let name: String

    /// Whether `path` (`-`: standard input) is read as a stream rather than mapped whole: anything
    /// but a regular file.
    static func isStream(path: String) -> Bool {
        let status = path == "-" ? try? FileStatus.of(FileDescriptor.standardInput) : try? FileStatus.of(path)
        return status.map { $0.kind != .regular } ?? false
    }

    /// Answers every point to the end of the input; the number of points answered.
    func run() throws -> Int {
        var parser = PointsParser(name: name)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var answered = 0
        while true {
            let count: Int
            do {
                count = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            } catch {
                throw RuntimeFailure.unreadable(path: name, cause: .error(error))
            }
            if count == 0 { break }
            pending.append(contentsOf: chunk[0..<count])
            guard let lastNewline = pending.lastIndex(of: 0x0A) else { continue }
            let parsed = pending.withUnsafeBufferPointer {
                parser.parse(UnsafeBufferPointer(rebasing: $0[...lastNewline]))
            }
            answered += answer(parsed)
            if let problem = parsed.problem { throw problem }
            pending.removeFirst(lastNewline + 1)
        }
        let parsed = pending.withUnsafeBufferPointer { parser.parse($0) }
        answered += answer(parsed)
        if let problem = parsed.problem { throw problem }
        return answered
    }

    /// Writes one line per point of `parsed`, in order, straight to standard output.
    func answer(_ parsed: PointsParse) -> Int {
        let points = parsed.points
        guard !points.isEmpty else { return 0 }
        let batch = points.withUnsafeBufferPointer { PointBatch(set, points: $0, threads: 1) }
        let work = LineWork(batch: batch, ids: ids, slices: PointSlices(count: points.count, parts: 1))
        work.run(0)
        for json in work.outputs { json?.withUnsafeBytes { writeAllToStandardOutput($0) } }
        return points.count
    }
}
