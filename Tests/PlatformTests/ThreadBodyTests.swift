import Foundation
import Platform
import Testing

/// `runThread`: a thread of ours that overflows its stack is reported by Swift's backtracer, named,
/// instead of ending the process without a word. The crash happens in a child: this test binary,
/// run again for `crashWhenAsked` alone with the variable that lets it crash.
@Suite struct ThreadBodyTests {
    static let crashVariable = "GPSFENCE_TEST_CRASH_A_THREAD"

    /// Deep enough for any stack: each call keeps a buffer alive across the next.
    static func recurse(_ depth: Int) -> Int {
        var buffer = [UInt8](repeating: UInt8(truncatingIfNeeded: depth), count: 64)
        buffer.withUnsafeMutableBufferPointer { $0[0] &+= 1 }
        return depth == Int.max ? 0 : recurse(depth + 1) &+ Int(buffer[0])
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[crashVariable] == "1"))
    func crashWhenAsked() {
        let thread = Thread {
            runThread(named: "gf-overflow") { print(Self.recurse(0)) }
        }
        thread.stackSize = 1 << 18
        thread.start()
        Thread.sleep(forTimeInterval: 60)
    }

    @Test func aStackOverflowOnOurThreadIsReportedNotSilent() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["--testing-library", "swift-testing", "--filter", "ThreadBodyTests/crashWhenAsked"]
        var environment = ProcessInfo.processInfo.environment
        environment[Self.crashVariable] = "1"
        // The report itself, without symbol names: reading the debug binary's symbols can take
        // longer than the backtracer waits on a loaded machine.
        environment["SWIFT_BACKTRACE"] = "enable=yes,interactive=no,symbolicate=off,output-to=stderr"
        child.environment = environment
        let output = Pipe()
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        if said.contains("ThreadSanitizer:") {
            // A ThreadSanitizer build (CI's): the sanitizer takes the signal first, says so and exits.
            #expect(said.contains("ThreadSanitizer: stack-overflow"), "\(said.suffix(2000))")
            return
        }
        #expect(child.terminationReason == .uncaughtSignal, "\(child.terminationStatus): \(said.suffix(2000))")
        #expect(said.contains("*** Program crashed"), "no crash report: \(said.suffix(2000))")
        #expect(said.contains("\"gf-overflow\" crashed"), "the crashed thread is not named: \(said.suffix(2000))")
    }
}
