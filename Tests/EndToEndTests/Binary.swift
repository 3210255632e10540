import Foundation

struct CommandResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built `gpsfence` binary: it sits beside the test bundle in the build products folder.
func gpsfenceBinary() -> URL {
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return executable.deletingLastPathComponent().appendingPathComponent("gpsfence")
}

/// The package root, found from this source file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs the real binary with `arguments`, feeding `stdin`, and collects its output.
func runGPSFence(_ arguments: [String], stdin: Data = Data()) throws -> CommandResult {
    let process = Process()
    process.executableURL = gpsfenceBinary()
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    // Times for people are local: tests read them in UTC unless they choose a zone.
    process.environment = ProcessInfo.processInfo.environment.merging(["TZ": "UTC"]) { $1 }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Feed stdin and drain stderr on their own threads while this one drains stdout, so that no
    // pipe can fill up and block the child.
    let group = DispatchGroup()
    let collected = ErrorOutput()
    DispatchQueue.global().async(group: group) {
        input.fileHandleForWriting.write(stdin)
        try? input.fileHandleForWriting.close()
    }
    DispatchQueue.global().async(group: group) {
        collected.data = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    let errorData = collected.data
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
        stderr: String(decoding: errorData, as: UTF8.self))
}

private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
}
