import Foundation
import Testing
import Waiting

/// `Tests/Support/powercutfs.c` mounted on a temporary folder: a FUSE filesystem that keeps every
/// write not yet made durable by `fsync`/`fdatasync` in memory, so that `cut()` (unmount, then mount
/// again) loses exactly what a power cut would. See docs/running.md for what gpsfence promises then.
final class PowerCutFilesystem {
    /// Why the power-cut tests cannot run here, or nil when they can. Only a missing `/dev/fuse` (a
    /// container without FUSE) skips them; a missing compiler or libfuse3-dev is a failure, since
    /// `.ci/run` installs those (scripts/system-packages.txt, group `test`).
    static var unavailable: String? {
        FileManager.default.fileExists(atPath: "/dev/fuse")
            ? nil : "no /dev/fuse on this machine: the power-cut tests need FUSE and are skipped"
    }

    /// The files as the program sees them.
    let mountPoint: URL
    /// The files as "the disk" holds them: what survives a cut.
    let backing: URL
    private var daemon: Process?

    init() throws {
        let folder = temporaryDirectory().appendingPathComponent("powercutfs")
        backing = folder.appendingPathComponent("disk")
        mountPoint = folder.appendingPathComponent("mnt")
        for url in [backing, mountPoint] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try mount()
    }

    /// The filesystem's binary, compiled once per test run from its C source.
    static let binary: Result<URL, PowerCutError> = {
        let output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "gpsfence-powercutfs-\(getpid())")
        let source = packageRoot.appendingPathComponent("Tests/Support/powercutfs.c").path
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/bin/sh")
        build.arguments = [
            "-c", "cc -O2 -Wall -o \"$1\" \"$2\" $(pkg-config --cflags --libs fuse3)", "sh", output.path, source,
        ]
        let errors = Pipe()
        build.standardError = errors
        do { try build.run() } catch { return .failure(PowerCutError("cannot run cc: \(error)")) }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        build.waitUntilExit()
        guard build.terminationStatus == 0 else {
            return .failure(PowerCutError("cannot build powercutfs (needs cc and libfuse3-dev): \(message)"))
        }
        return .success(output)
    }()

    private func mount() throws {
        let process = Process()
        process.executableURL = try Self.binary.get()
        process.arguments = [backing.path, mountPoint.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        guard firstLineOf(output) == "ready" else {
            process.terminate()
            throw PowerCutError("powercutfs did not mount on \(mountPoint.path)")
        }
        daemon = process
    }

    private func unmount() {
        guard let daemon else { return }
        // The daemon exits once its mount is gone; what it held in memory goes with it.
        let unmount = Process()
        unmount.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        unmount.arguments = ["fusermount3", "-u", "-z", mountPoint.path]
        if (try? unmount.run()) != nil { unmount.waitUntilExit() }
        if !waitUntil(timeout: 5, every: 0.01, { !daemon.isRunning }) { kill(daemon.processIdentifier, SIGKILL) }
        daemon.waitUntilExit()
        self.daemon = nil
    }

    /// The power cut: every write not synced is lost; the files read back as the disk holds them.
    /// Every process with a file open on the mount must be dead first.
    func cut() throws {
        unmount()
        try mount()
    }

    deinit { unmount() }
}

struct PowerCutError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
