import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// A real tmux server of the test's own (its own socket), for what must be seen on a terminal.
final class TmuxSession {
    let socket = "gpsfence-test-\(UUID().uuidString.prefix(8))"
    let name = "watch"

    /// Starts `command` (argv, no shell involved on our side: tmux gets each word quoted) in a
    /// detached session of `width` x `height`.
    init(_ command: [String], width: Int = 120, height: Int = 60) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") else {
            throw HarnessError("/usr/bin/tmux is missing: install Debian's tmux (scripts/system-packages.txt)")
        }
        let quoted = command.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let status = try tmux([
            "new-session", "-d", "-s", name, "-x", String(width), "-y", String(height), quoted,
        ]).status
        guard status == 0 else { throw HarnessError("tmux new-session failed (\(status))") }
    }

    /// Runs one tmux client command with `posix_spawn` and `waitpid`. Its output goes through a
    /// file, not a pipe: the server that `new-session` forks inherits the client's descriptors and
    /// would hold a pipe open for ever (and Foundation's `Process` did not see that client exit).
    @discardableResult
    func tmux(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let file = NSTemporaryDirectory() + "gpsfence-tmux-\(UUID().uuidString).out"
        defer { unlink(file) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The test runner's threads block signals; a tmux server started with that mask would
        // never see SIGCHLD nor its own kill-server's SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArguments, environ)
        guard spawned == 0 else { throw HarnessError("posix_spawn tmux: \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        return ((status >> 8) & 0xFF, text)
    }

    /// What the pane shows now, as text.
    func screen() -> String { (try? tmux(["capture-pane", "-p", "-t", name]).output) ?? "" }

    /// Waits until the screen satisfies `condition`; returns the last screen seen.
    func wait(timeout: Double = 30, until condition: (String) -> Bool) -> (Bool, String) {
        var last = ""
        let held = waitUntil(timeout: timeout, every: 0.2) {
            last = screen()
            return condition(last)
        }
        return (held, last)
    }

    /// Stops the test's tmux server (and whatever still runs in it).
    func close() { _ = try? tmux(["kill-server"]) }

    deinit { close() }
}

/// `gpsfence status --watch` (docs/report.md, "Live view") in a real terminal: tmux, against a
/// live `run` fed by `gpsfence simulate` on a pseudo-terminal.
@Suite(.serialized) struct WatchCommandTests {
    /// On a terminal shorter than the frame the header stays at the top (the title, the run's
    /// state; the alarm would be first) and the rest is shortened, saying so, instead of the
    /// top scrolling away.
    @Test func aShortTerminalKeepsTheHeader() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence([
            "replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--state", state,
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let tmux = try TmuxSession(
            [gpsfenceBinary().path, "status", "--watch", "--interval", "0.5", "--state", state], width: 100,
            height: 12)
        defer { tmux.close() }
        let (shortened, screen) = tmux.wait { $0.contains("more lines: a taller terminal shows them") }
        #expect(shortened, "\(screen)")
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.first?.hasPrefix("gpsfence status --watch") == true, "\(screen)")
        #expect(rows.contains { $0.hasPrefix("  run            stopped at") }, "\(screen)")
    }

    @Test func watchRedrawsTheLiveStatusInATerminal() throws {
        let folder = temporaryDirectory()
        let (fences, route, state) = try StatusCommandTests.yardAndRoute(in: folder)
        let simulator = try BackgroundGPSFence([
            "simulate", route.path, "--baud", "9600", "--rate", "2", "--speed", "2", "--loop",
        ])
        let pty = simulator.readFirstLine()
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish(timeout: 10)
        }
        let run = try BackgroundGPSFence([
            "run", "--device", pty, "--baud", "9600", "--fences", fences.path, "--state", state, "--json",
            "--track-write-interval", "1",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        defer {
            run.signal(SIGINT)
            _ = run.finish()
        }
        #expect(output.wait { types($0).contains("enter") }, "\(output.all)")

        // A fixed sh script (the words are "$@", never part of the script) prints the exit status
        // on the terminal once the view has given it back (its INT trap keeps it alive through the
        // Ctrl-C, and is reset to the default in the view, as every caught signal is on exec): tmux fills `pane_dead_status` only when
        // it gets round to reaping, which a loaded machine can delay for long.
        let tmux = try TmuxSession([
            "/bin/sh", "-c", "trap : INT; \"$@\"; echo \"watch exit status $?\"; sleep 60", "sh",
            gpsfenceBinary().path, "status", "--watch", "--interval", "0.5", "--state", state,
        ])
        defer { tmux.close() }
        // The status, the motion from the track, the fence ahead when heading east (the depot,
        // 0.01° east: about 700 m from the route) and the enter event, all on one screen.
        let (complete, screen) = tmux.wait { screen in
            screen.contains("gpsfence status --watch") && screen.contains("Yard [yard]")
                && screen.contains("INSIDE since") && screen.contains("motion         7.2 km/h")
                && screen.contains("ahead          Depot [depot]") && screen.contains("enter  Yard [yard]")
        }
        #expect(complete, "\(screen)")
        // Redrawn in place: the clock in the header moves, and the header stays on the first line.
        let clock = { (screen: String) in screen.split(separator: "\n").first.map(String.init) ?? "" }
        let first = clock(screen)
        let (moved, later) = tmux.wait(timeout: 10) { clock($0) != first && clock($0).contains("status --watch") }
        #expect(moved, "\(first) / \(later)")
        #expect(later.components(separatedBy: "gpsfence status --watch").count == 2, "one frame on screen: \(later)")

        // Ctrl-C quits with status 0 and gives the terminal back (the alternate screen is left).
        try tmux.tmux(["send-keys", "-t", tmux.name, "C-c"])
        let (exited, afterQuit) = tmux.wait(timeout: 20) { $0.contains("watch exit status") }
        #expect(exited && afterQuit.contains("watch exit status 0"), "\(afterQuit)")
        #expect(!afterQuit.contains("recent events"), "\(afterQuit)")
    }

    /// After the run stopped, the live view says so and when; the stopped run's last speed and
    /// the fence it was heading for are not shown as now. Off a terminal, frame after frame.
    @Test func watchOfAStoppedRunShowsNoMotionAndNoFenceAhead() throws {
        let folder = try SyncCommandTests.folder()
        let (capture, fences) = try SyncCommandTests.capture(in: folder, count: 20)
        // A fence on the course, 2 km on (north-east): ahead of the drive's last fix.
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"far","geometry":{"type":"Point","coordinates":[8.03,47.02]},"properties":{"radius":200}}]}"#
            .write(toFile: fences, atomically: true, encoding: .utf8)
        let state = folder.appendingPathComponent("state.sqlite").path
        let replay = try runGPSFence(["replay", capture, "--fences", fences, "--state", state])
        #expect(replay.status == 0, "\(replay.stderr)")
        let watch = try BackgroundGPSFence(["status", "--watch", "--interval", "0.2", "--state", state])
        let output = LineCollector(watch.output.fileHandleForReading)
        #expect(output.wait { $0.contains { $0.hasPrefix("  recent events") } }, "\(output.all)")
        watch.signal(SIGINT)
        #expect(watch.finish().status == 0)
        let frame = output.all.prefix { !$0.hasPrefix("  recent events") }.joined(separator: "\n")
        #expect(frame.contains("  run            stopped at 20"), "\(frame)")
        #expect(!frame.contains("m/s") && !frame.contains("  motion") && !frame.contains("  ahead"), "\(frame)")
        #expect(!frame.contains("eta"), "\(frame)")
    }

    @Test func watchOfAMissingStateFileIsExitStatusTwo() throws {
        let result = try runGPSFence(["status", "--watch", "--state", "/nonexistent/state.sqlite"])
        #expect(result.status == 2 && result.stderr.contains("no state file"), "\(result.stderr)")
        let both = try runGPSFence(["status", "--watch", "--json"])
        #expect(both.status == 2)
    }
}
