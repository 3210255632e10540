import Delivery
import Dispatch
import Platform
import Presentation
import SystemPackage

/// `[#########...........]  45%  1.2 of 2.6 MB` (`120 of 270 KB` below a megabyte) on standard
/// error, redrawn at most 10 times a second.
final class ProgressBar: @unchecked Sendable {
    private let total: Int64
    private var done: Int64 = 0
    private var lastDraw: UInt64 = 0
    /// The reader's thread draws it.
    private let drawer = OneThreadAtATime("ProgressBar")

    init(total: Int64) { self.total = total }

    func advance(by count: Int) {
        let claim = drawer.enter()
        defer { drawer.leave(claim) }
        done += Int64(count)
        let now = DispatchTime.now().uptimeNanoseconds
        guard now - lastDraw > 100_000_000 else { return }
        lastDraw = now
        draw()
    }

    /// The last draw, and the line ended. A replay stopped early shows how far it got.
    func finish(complete: Bool) {
        let claim = drawer.enter()
        defer { drawer.leave(claim) }
        if complete { done = total }
        draw()
        OutputWriter.standardError.write(line: "")
    }

    private func draw() {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let amount =
            total < 1_000_000
            ? "\(done / 1000) of \(total / 1000) KB"
            : "\(Double(done / 100_000) / 10) of \(Double(total / 100_000) / 10) MB"
        let text = "\r[\(bar)] \(Int(fraction * 100))%  \(amount)"
        _ = Array(text.utf8).withUnsafeBytes { writeAll(FileDescriptor.standardError.rawValue, $0) }
    }
}
