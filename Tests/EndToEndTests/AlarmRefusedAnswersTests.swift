import Foundation
import Testing
import Waiting

/// Answers the alarm must not take (docs/running.md, "Alarms"), with the real binary: a retained
/// `ack` on the broker, which would silence every alarm to come, and `gpsfence ack` while the state
/// file is used by processes that cannot take the answer, which SIGUSR1 must not end.
@Suite(.serialized) struct AlarmRefusedAnswersTests {
    /// A retained `ack` waits on a real mosquitto before the run starts. The run is killed while
    /// the alarm sounds and started again: its new subscription gets the retained `ack` while the
    /// restored alarm sounds, and it keeps ringing; a plain `ack` then answers it.
    @Test func aRetainedAckOnTheBrokerDoesNotSilenceTheAlarm() throws {
        let folder = temporaryDirectory()
        let broker = try MosquittoBroker()
        let prefix = "boats/sea-otter"
        let (simulator, run) = try AlarmTests.boat(
            folder, extra: ["--mqtt", "mqtt://127.0.0.1:\(broker.port)/\(prefix)"])
        defer { simulator.signal(SIGTERM) }
        let outcome = try AlarmTests.answer("retained=\(broker.port)=\(prefix)", run)
        AlarmTests.expectRangUntilAnswered(outcome)
        #expect(outcome["retained_refused_after"] as? Double != nil, "the retained ack never came: \(outcome)")
        #expect(outcome["answered_before_the_answer"] as? Bool == false, "\(outcome)")
        #expect((outcome["restart_bells"] as? Int ?? 0) >= 3, "\(outcome)")
        let events = try stateEvents(folder)
        // Said as an error by each run, at each of its subscriptions.
        let refusals = events.filter {
            $0["type"] as? String == "error" && ($0["message"] as? String ?? "").contains("retained ack is ignored")
        }
        #expect(refusals.count == 2, "\(events.compactMap { $0["type"] as? String })")
        let answers = events.filter { $0["type"] as? String == "alarm_acknowledged" }
        #expect(answers.count == 1, "\(answers)")
        #expect(answers.first?["by"] as? String == "mqtt", "\(answers)")
    }

    /// The state file holds an unanswered alarm (a run killed while it sounded). First its lock is
    /// held by a process that does not say it answers (as an older gpsfence's run): `gpsfence ack`
    /// says it cannot tell it (exit 1) and leaves it alone, where SIGUSR1 would have ended it. Then a
    /// `replay --state`, reading standard input, uses the file: a replay claims it as a run does but
    /// takes no answers, so `ack` says so too (exit 1), and the replay goes on and finishes normally.
    @Test func ackLeavesAloneWhatHoldsTheStateFileButCannotTakeTheAnswer() throws {
        let folder = temporaryDirectory()
        let state = folder.appendingPathComponent("state.sqlite").path
        let (simulator, argv) = try AlarmTests.boat(folder)
        defer { simulator.signal(SIGTERM) }
        let run = try BackgroundGPSFence(Array(argv.dropFirst()))
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait(timeout: 90) { types($0).contains("alarm") }, "\(output.all)")
        run.signal(SIGKILL)
        _ = run.finish()

        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            // SIGUSR1's default action, unblocked (this test's children inherit a mask): it ends the
            // holder if it is sent.
            "import fcntl, os, signal, sys, time\nsignal.signal(signal.SIGUSR1, signal.SIG_DFL)\n"
                + "signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGUSR1])\n"
                + "f = open(sys.argv[1], 'w')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
                + "f.write(f'{os.getpid()}\\n')\nf.flush()\nprint('held', flush=True)\ntime.sleep(60)\n",
            state + ".lock",
        ]
        let held = Pipe()
        holder.standardOutput = held
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        #expect(firstLineOf(held) == "held")
        let refused = try runGPSFence(["ack", "--state", state])
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        #expect(
            refused.stderr.contains("(pid \(holder.processIdentifier)) is not a run that can be told"),
            "\(refused.stderr)")
        // Nothing happens: a SIGUSR1 sent would have ended the holder well within this time.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(holder.isRunning, "the ack ended the lock's holder")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()

        let replay = Process()
        replay.executableURL = gpsfenceBinary()
        replay.arguments = [
            "replay", "-", "--fences", folder.appendingPathComponent("fences.geojson").path, "--state", state,
        ]
        let input = Pipe()
        replay.standardInput = input
        replay.standardOutput = FileHandle.nullDevice
        replay.standardError = FileHandle.nullDevice
        try replay.run()
        defer { if replay.isRunning { kill(replay.processIdentifier, SIGKILL) } }
        // Sentences after the killed run's last fix, and the replay waits for more.
        input.fileHandleForWriting.write(Data(Self.laterSentences.utf8))
        // Until the replay has claimed the state file: its pid is in the lock file, written once
        // the lock is taken.
        let lock = state + ".lock"
        #expect(
            waitUntil(timeout: 60) {
                let text = (try? String(contentsOfFile: lock, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").first == "\(replay.processIdentifier)"
            }, "the replay never claimed the state file")
        #expect(replay.isRunning)
        let left = try runGPSFence(["ack", "--state", state])
        #expect(left.status == 1, "\(left.stdout) \(left.stderr)")
        #expect(
            left.stderr.contains("(pid \(replay.processIdentifier)) is not a run that can be told"), "\(left.stderr)")
        // Nothing happens: a SIGUSR1 sent would have ended the replay well within this time.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(replay.isRunning, "the ack ended the replay")
        try input.fileHandleForWriting.close()
        replay.waitUntilExit()
        #expect(replay.terminationReason == .exit && replay.terminationStatus == 0, "\(replay.terminationStatus)")
    }

    /// Two fixes at the anchorage a day after the dragging boat's track.
    static let laterSentences = [
        "$GPRMC,040000.00,A,4130.0000,N,07100.0000,W,0.0,0.0,020726,,,A",
        "$GPRMC,040001.00,A,4130.0000,N,07100.0000,W,0.0,0.0,020726,,,A",
    ].map { sentence in
        let body = sentence.dropFirst().utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return sentence + "*" + String(format: "%02X", body) + "\r\n"
    }.joined()
}
