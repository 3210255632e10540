import Foundation
import JSONOutput
import NMEA
import Presentation
import Synchronization
import Testing
import Waiting

@testable import Delivery
@testable import Events
@testable import Fences

/// Hooks with hostile data, failing hooks, hooks with children, hooks that
/// read their input, and the signal state hooks start with. Every hook is a real child process.
@Suite struct HookHardeningTests {
    func errorEvent(_ problem: Problem, wallTime: UTCTime? = nil) -> OutgoingEvent {
        let event = GeofenceEvent(
            .error(problem: problem, wallTime: wallTime), time: UTCTime(millisecondsSinceEpoch: 1_770_113_740_000))
        return OutgoingEvent(event, fences: try! FenceSet.parse(fencesJSON))
    }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Item 5: a 200 KB fence name still runs the hook, its environment value cut to 4 KiB at a
    /// character boundary, and the whole event arrives on standard input.
    @Test func hugeFenceNameStillRunsTheHookWithTheWholeEventOnStdin() throws {
        let folder = try temporaryFolder()
        let out = folder.appendingPathComponent("out").path
        let hook = try script(
            folder, "hook", "cat > '\(out).json'\nprintf '%s' \"$GPSFENCE_FENCE_NAME\" > '\(out).name'\n")
        // 'é' is two bytes in UTF-8: 4096 is not a character boundary after "x" + 2047 'é' + ...
        let name = "x" + String(repeating: "é", count: 100_000)
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"big","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20,"name":\(JSONLine.quoted(name))}}]}
            """)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hook], timeout: 20, report: reports.add)
        let event = enterEvent(fences)
        sink.deliver(event, fences: fences)
        sink.finish()
        #expect(reports.all.isEmpty, "\(reports.all)")
        let json = try String(contentsOfFile: out + ".json", encoding: .utf8)
        #expect(json == event.json + "\n")
        #expect(json.utf8.count > 200_000)
        let shown = try Data(contentsOf: URL(fileURLWithPath: out + ".name"))
        // 1 + 2 * 2047 = 4095 bytes: the next 'é' would end at byte 4097, past the bound.
        #expect(shown.count == 4095)
        #expect(String(data: shown, encoding: .utf8) == "x" + String(repeating: "é", count: 2047))
    }

    @Test func environmentValuesAreBoundedOnACharacterBoundaryAndLoseNUL() {
        #expect(HookEnvironment.bounded("short") == "short")
        #expect(HookEnvironment.bounded("a\u{0}b") == "ab")
        let long = String(repeating: "€", count: 3000)  // 3 bytes each
        let cut = HookEnvironment.bounded(long)
        #expect(cut.utf8.count == 4095 && cut == String(repeating: "€", count: 1365))
        #expect(HookEnvironment.bounded(String(repeating: "a", count: 5000)).utf8.count == 4096)
    }

    /// Item 6: the runtime turns every report into an `error` event and delivers it to all sinks
    /// (as RunJob does); the failing hook must not run on its own failures.
    @Test func aFailingHookDoesNotFeedOnItsOwnErrors() throws {
        let folder = try temporaryFolder()
        let log = folder.appendingPathComponent("runs").path
        let failing = try script(folder, "fails", "read -r line; echo \"$GPSFENCE_EVENT\" >> '\(log)'\nexit 1\n")
        let otherLog = folder.appendingPathComponent("other.log").path
        let other = try script(folder, "other", "echo \"$GPSFENCE_EVENT\" >> '\(otherLog)'\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(
            programs: [failing, other], timeout: 5, failureReportInterval: 0.2, report: reports.add)
        sink.deliver(enterEvent(fences), fences: fences)
        // Loop like the runtime for three seconds: reports become error events for every sink (a
        // time in which nothing more may be reported, not a wait for a state).
        var delivered = 0
        let end = Date().addingTimeInterval(3)
        while Date() < end {
            let all = reports.problems
            while delivered < all.count {
                sink.deliver(errorEvent(all[delivered]), fences: fences)
                delivered += 1
            }
            usleep(20_000)
        }
        sink.finish()
        #expect(lines(log) == ["enter"], "the failing hook ran on: \(lines(log))")
        #expect(reports.all.count == 1, "\(reports.all)")
        #expect(reports.all.first?.contains("fails exited with status 1") == true)
        // The other hook still hears about the failure.
        #expect(lines(otherLog) == ["enter", "error"])
    }

    /// A hook's own failure is known by where it comes from, never by its words: an `error` that
    /// says the same (read back from a state file, or a failure of the same program in another
    /// sink) still runs the hook; only the report this sink made of this hook does not.
    @Test func aHooksOwnFailureIsKnownByItsOriginNotByItsText() throws {
        let folder = try temporaryFolder()
        let log = folder.appendingPathComponent("runs").path
        let failing = try script(
            folder, "fails", "read -r line; echo \"$GPSFENCE_EVENT $GPSFENCE_EVENT_ID\" >> '\(log)'\nexit 1\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(
            programs: [failing], timeout: 5, concurrency: 1, failureReportInterval: 600, report: reports.add)
        sink.deliver(enterEvent(fences), fences: fences)
        let deadline = Date().addingTimeInterval(60)
        while reports.problems.isEmpty, Date() < deadline { usleep(20_000) }
        let own = try #require(reports.problems.first)
        guard case .hook(let failure) = own else {
            Issue.record("a hook's report is not a hook failure: \(own)")
            return
        }
        #expect(own.text.contains("fails exited with status 1 for event"), "\(own.text)")
        let elsewhere = HookFailure(
            origin: HookFailure.Origin(sink: failure.origin.sink + 1, hook: failure.origin.hook),
            program: failure.program, cause: failure.cause)
        // Distinct wall times give the three events distinct ids; the words are the same.
        let sameWords = errorEvent(.readBack(own.text), wallTime: UTCTime(millisecondsSinceEpoch: 1))
        let otherSink = errorEvent(.hook(elsewhere), wallTime: UTCTime(millisecondsSinceEpoch: 2))
        let itsOwn = errorEvent(own, wallTime: UTCTime(millisecondsSinceEpoch: 3))
        #expect(sameWords.json.contains(own.text) && otherSink.json.contains(own.text))
        for event in [sameWords, otherSink, itsOwn] { sink.deliver(event, fences: fences) }
        sink.finish()
        let ran = ["enter \(enterEvent(fences).id)", "error \(sameWords.id)", "error \(otherSink.id)"]
        #expect(lines(log).sorted() == ran.sorted(), "the hook ran on its own failure: \(itsOwn.id)")
    }

    /// Item 6: repeated failures of one hook make one report at once and one with the count.
    @Test func repeatedFailuresAreReportedOncePerIntervalWithACount() throws {
        let folder = try temporaryFolder()
        let failing = try script(folder, "fails", "exit 2\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [failing], timeout: 5, failureReportInterval: 600, report: reports.add)
        for _ in 0..<10 { sink.deliver(enterEvent(fences), fences: fences) }
        sink.finish()
        let all = reports.all
        #expect(all.count == 2, "\(all)")
        #expect(all.first?.contains("exited with status 2") == true)
        #expect(all.last?.contains("failed 9 more times") == true)
    }

    /// Item 6: at the timeout the hook's whole process group goes, its own children too.
    @Test func timeoutKillsTheHooksChildrenToo() throws {
        let folder = try temporaryFolder()
        let pids = folder.appendingPathComponent("pids").path
        let hook = try script(
            folder, "spawns",
            """
            sleep 300 &
            echo $! >> '\(pids)'
            sh -c 'sleep 300 & echo $! >> "\(pids)"; wait' &
            echo $! >> '\(pids)'
            wait
            """)
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hook], timeout: 1, report: reports.add)
        sink.deliver(enterEvent(fences), fences: fences)
        sink.finish()
        #expect(reports.all.count == 1 && reports.all[0].contains("took longer than 1 s"), "\(reports.all)")
        let children = lines(pids).compactMap { pid_t($0) }
        #expect(children.count >= 3)
        // Killed processes are reaped by init; allow it a moment, then none may be left running.
        waitUntil(timeout: 5) { !children.contains(where: isRunning) }
        for pid in children { #expect(!isRunning(pid), "child \(pid) of the hook survived the timeout") }
    }

    /// Alive and not a zombie (a zombie has exited; only its parent has not collected it yet).
    func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[stat.index(close, offsetBy: 2)]
        return state != "Z" && state != "X"
    }

    /// Item 7: a dozen events at once, a hook that reads its input and takes ~50 ms: all finish,
    /// none waits for another to be fed, none is killed.
    @Test func hooksReadingStdinAreNeverStarved() throws {
        let folder = try temporaryFolder()
        let log = folder.appendingPathComponent("done").path
        let hook = try script(folder, "reads", "cat > /dev/null\nsleep 0.05\necho \"$GPSFENCE_EVENT_ID\" >> '\(log)'\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hook], timeout: 5, concurrency: 4, report: reports.add)
        for _ in 0..<13 { sink.deliver(enterEvent(fences), fences: fences) }
        sink.finish()
        #expect(reports.all.isEmpty, "\(reports.all)")
        #expect(lines(log).count == 13)
    }

    /// Item 8: a hook starts with no blocked and no ignored signal, even when the thread that
    /// delivers the event blocks signals and the process ignores SIGPIPE (both true here).
    @Test func hooksStartWithAnEmptySignalMaskAndDefaultDispositions() throws {
        let folder = try temporaryFolder()
        let out = folder.appendingPathComponent("status").path
        let hook = try script(folder, "signals", "exec grep -E '^Sig(Blk|Ign):' /proc/self/status > '\(out)'\n")
        let fences = try FenceSet.parse(fencesJSON)
        var blocked = sigset_t()
        var previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGUSR1] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, SIG_DFL) }
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hook], report: reports.add)
        sink.deliver(enterEvent(fences), fences: fences)
        sink.finish()
        #expect(reports.all.isEmpty)
        #expect(lines(out) == ["SigBlk:\t0000000000000000", "SigIgn:\t0000000000000000"])
    }

    /// Item 9 (the sink's part): stopping with a hung hook running and more queued takes the
    /// timeout plus at most the half-second grace, and accounts for every event: each one either
    /// ran and was reported killed, or is counted as not run. Queued events may still start until
    /// the stop's deadline, so when the stop comes `pause` seconds into the first hook, that hook's
    /// own time limit ends before the deadline and the next one starts in the gap: how many start
    /// is the machine's to decide, the sum is not.
    @Test(arguments: [0.0, 0.4])
    func stopIsBoundedAndReportsWhatItCutShort(pause: Double) throws {
        let folder = try temporaryFolder()
        let started = folder.appendingPathComponent("started").path
        let hung = try script(folder, "hangs", "echo x >> '\(started)'\nexec sleep 300\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hung], timeout: 1, concurrency: 1, report: reports.add)
        for _ in 0..<6 { sink.deliver(enterEvent(fences), fences: fences) }
        if pause > 0 {
            let deadline = Date().addingTimeInterval(60)
            while lines(started).isEmpty, Date() < deadline { usleep(10_000) }
            usleep(UInt32(pause * 1_000_000))
        }
        let start = Date()
        sink.stop()
        let took = Date().timeIntervalSince(start)
        #expect(took < 1 + 0.5 + 1, "stop took \(took) s")  // + 1 s for a loaded machine
        var killed = 0
        var notRun = 0
        func count(_ cause: HookFailure.Cause, times: Int) {
            switch cause {
            case .timedOut, .killedAtStop: killed += times
            case .notRunAtStop(let queued): notRun += queued
            case .repeated(let more, _, let last): count(last, times: more)
            case .couldNotStart, .exited, .killedBySignal, .dropped:
                Issue.record("unexpected \(cause)")
            }
        }
        for problem in reports.problems {
            guard case .hook(let failure) = problem else {
                Issue.record("not a hook's failure: \(problem)")
                continue
            }
            count(failure.cause, times: 1)
        }
        #expect(killed >= 1 && notRun >= 1, "\(reports.all)")
        #expect(killed + notRun == 6, "\(reports.all)")
        #expect(killed == lines(started).count, "\(reports.all)")
        #expect(reports.all.contains { $0.contains("hangs") && $0.contains("1 s") && $0.contains("was killed") })
        sink.deliver(enterEvent(fences), fences: fences)  // after stop: ignored, nothing runs
        sink.finish()
        #expect(lines(started).count == killed)
    }

    /// Item 3: C1 controls (U+009B is a one-character CSI) in fence names and ids never reach a
    /// human line raw.
    @Test func c1ControlsAreEscapedOnHumanLines() throws {
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"i\\u009b2J","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20,"name":"n\\u009b31m\\u0085\\u009f\\u001b[2J\\u007f"}}]}
            """)
        let line = ConsoleSink.humanLine(enterEvent(fences).event, fences: fences, color: false)
        #expect(line.contains("n?31m???[2J? [i?2J]"), "\(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(JSONLine.quoted("a\u{9B}b\u{7F}") == "\"a\\u009bb\\u007f\"")
        #expect(HumanText.printable("plain é ü") == "plain é ü")
    }
}
