import Foundation

/// Starts one of Tests/Support's Python servers on 127.0.0.1 and reads the port it prints first.
func startSupportServer(_ script: String, _ arguments: [String]) throws -> (process: Process, port: Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support/\(script)").path
    process.arguments = ["python3", path] + arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var line = Data()
    while !line.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
    }
    let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    return (process, port)
}
