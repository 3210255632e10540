import Foundation

/// The Home Assistant releases the tests run (docs/mqtt.md, "Tested with Home Assistant"): the
/// oldest supported one, in a virtualenv on this machine's Python (scripts/homeassistant-venv.sh),
/// and the current one, which needs a newer Python than Debian stable has, in a Debian testing root
/// under chroot (scripts/homeassistant-current.sh). Each is made once and cached outside the clone.
enum HomeAssistantRelease: String, CustomStringConvertible, Sendable {
    case oldest = "2024.3.3"
    case current = "2026.11.0"

    var description: String { "Home Assistant \(rawValue)" }

    /// How to start `hass` on a config folder: the executable and its arguments before the
    /// folder's own (`-c FOLDER` for the virtualenv; the script binds the folder itself).
    struct Launcher: Sendable {
        var executable: String
        var arguments: @Sendable (_ config: String) -> [String]
    }

    var launcher: Result<Launcher, SetupError> {
        switch self {
        case .oldest: Self.oldestLauncher
        case .current: Self.currentLauncher
        }
    }

    /// Whether the current release's root is made (the script's `--cached`): without it, and
    /// outside CI, its tests are skipped rather than spend minutes making it.
    static var currentIsCached: Bool {
        (try? Self.script("homeassistant-current.sh", ["--cached"]).get()) != nil
    }

    /// Whether the current release's tests run: always under CI (which makes the root), else
    /// when the root is there.
    static var currentRuns: Bool { ProcessInfo.processInfo.environment["CI"] != nil || currentIsCached }

    static let oldestLauncher: Result<Launcher, SetupError> = script("homeassistant-venv.sh", []).map { venv in
        Launcher(executable: venv + "/bin/hass") { ["--skip-pip", "-c", $0] }
    }

    static let currentLauncher: Result<Launcher, SetupError> = script("homeassistant-current.sh", []).map { _ in
        let path = packageRoot.appendingPathComponent("scripts/homeassistant-current.sh").path
        return Launcher(executable: "/bin/sh") { [path, "hass", $0, "--skip-pip"] }
    }

    /// Runs a script of scripts/ and returns the folder it printed.
    static func script(_ name: String, _ arguments: [String]) -> Result<String, SetupError> {
        let process = childProcess("/bin/sh", [packageRoot.appendingPathComponent("scripts/" + name).path] + arguments)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { return .failure(SetupError(text: "\(error)")) }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, !path.isEmpty else {
            return .failure(
                SetupError(
                    text: "scripts/\(name) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): "
                        + String(decoding: said, as: UTF8.self)))
        }
        return .success(path)
    }

    struct SetupError: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}
