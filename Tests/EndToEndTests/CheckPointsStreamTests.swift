import Foundation
import Testing

/// `check --points` answers as it goes: through a pipe each line is answered before the input
/// ends, and a bad line stops the run after every earlier point was answered.
@Suite struct CheckPointsStreamTests {
    static let fences = "captures/gym/fences.geojson"
    static let inside = "40.741895,-73.989308"

    func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = temporaryDirectory().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A program that writes a point and waits for its answer gets it while standard input is
    /// still open.
    @Test func aPipeIsAnsweredLineByLine() throws {
        let process = Process()
        process.executableURL = gpsfenceBinary()
        process.arguments = ["check", "--fences", Self.fences, "--points", "-"]
        process.currentDirectoryURL = packageRoot
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let lines = LineReader(output.fileHandleForReading)
        input.fileHandleForWriting.write(Data("lat,lon\n\(Self.inside)\n".utf8))
        #expect(lines.next(timeout: 10) == "[\"gym\"]")
        input.fileHandleForWriting.write(Data("0,0\n".utf8))
        #expect(lines.next(timeout: 10) == "[]")
        input.fileHandleForWriting.write(Data("\(Self.inside)\n".utf8))
        #expect(lines.next(timeout: 10) == "[\"gym\"]")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// 20,000 answers are kept when the last line is bad: the error names the line, exit 2.
    @Test func aBadLastLineOfAFileKeepsTheAnswersBeforeIt() throws {
        var text = "lat,lon\n"
        for i in 0..<20_000 { text += i % 2 == 0 ? "\(Self.inside)\n" : "0,0\n" }
        text += "40.74;-73.98\n"
        let path = try temporaryFile("points.csv", text)
        let result = try runGPSFence(["check", "--fences", Self.fences, "--points", path])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains("points.csv: line 20002: want 'lat,lon', found '40.74;-73.98'"), "\(result.stderr)")
        let answers = result.stdout.split(separator: "\n")
        #expect(answers.count == 20_000)
        #expect(answers.first == "[\"gym\"]")
        #expect(answers.last == "[]")
    }

    /// The same through a pipe: what came before the bad line is answered, then the error.
    @Test func aBadLineThroughAPipeKeepsTheAnswersBeforeIt() throws {
        let input = "\(Self.inside)\n0,0\nnot a point\n\(Self.inside)\n"
        let result = try runGPSFence(["check", "--fences", Self.fences, "--points", "-"], stdin: Data(input.utf8))
        #expect(result.status == 2)
        #expect(result.stdout == "[\"gym\"]\n[]\n")
        #expect(
            result.stderr.contains("standard input: line 3: want 'lat,lon', found 'not a point'"), "\(result.stderr)")
    }

    /// A last line without its line feed is still a point.
    @Test func aPipeWithoutAFinalLineFeedIsAnsweredToTheEnd() throws {
        let result = try runGPSFence(
            ["check", "--fences", Self.fences, "--points", "-"], stdin: Data("0,0\n\(Self.inside)".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "[]\n[\"gym\"]\n")
    }
}

/// Lines of a child's output as they come, read on a thread of their own.
final class LineReader: @unchecked Sendable {
    private let condition = NSCondition()
    private var buffer = Data()
    private var ended = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                self.condition.lock()
                if data.isEmpty { self.ended = true } else { self.buffer.append(data) }
                self.condition.broadcast()
                self.condition.unlock()
                if data.isEmpty { return }
            }
        }
    }

    /// The next whole line, or nil when none comes within `timeout` seconds.
    func next(timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }
}
