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
    let input = Pipe(), output = Pipe(), errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    nonisolated(unsafe) var errorData = Data()
    let errorReader = Thread { errorData = errors.fileHandleForReading.readDataToEndOfFile() }
    errorReader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorReader.isFinished { usleep(1000) }
    return CommandResult(
        status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
        stderr: String(decoding: errorData, as: UTF8.self))
}
