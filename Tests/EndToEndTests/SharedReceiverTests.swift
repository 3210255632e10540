import Foundation
import Testing
import Waiting

/// One receiver and one state file belong to one `run`: `doctor` reads what
/// the run knows instead of opening its port, and a second run on the same port or state file is
/// refused with the first one's pid.
@Suite(.serialized) struct SharedReceiverTests {
    /// A command expected to give up at once; one that carries on instead (retrying a port it
    /// cannot open) is killed after 20 s and recorded as a failure, rather than hanging the tests.
    func refused(_ arguments: [String]) throws -> (status: Int32, stderr: String) {
        try BackgroundGPSFence(arguments).finish(timeout: 20)
    }

    /// `record` holding the port is named as `record` (it has no state file to read), and the
    /// simulator that writes the pseudo-terminal is not a program to stop.
    @Test func doctorNamesTheGpsfenceCommandThatHoldsThePort() throws {
        let folder = temporaryDirectory()
        let (_, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "10", "--link", link, "--loop",
        ])
        _ = simulator.readFirstLine()
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let capture = folder.appendingPathComponent("c.nmea").path
        let record = try BackgroundGPSFence(["record", "--device", link, "--baud", "38400", "--output", capture])
        defer {
            record.signal(SIGINT)
            _ = record.finish()
        }
        let pid = record.process.processIdentifier
        // `record` holds the port once its capture has the `# start:` line (written when the port
        // is open): a `doctor` probing the port while `record` opened it would take it from under it.
        #expect(
            waitUntil(timeout: 30, every: 0.1) {
                ((try? String(contentsOfFile: capture, encoding: .utf8)) ?? "").contains("# start:")
            }, "record has not opened the port: \(record.process.isRunning ? "running" : "ended")")
        var doctor = try runGPSFence(["doctor", "--device", link, "--autobaud-window", "0.5"])
        let deadline = Date().addingTimeInterval(scaled(30))
        while !doctor.stdout.contains("(pid \(pid))"), Date() < deadline {
            usleep(200_000)
            doctor = try runGPSFence(["doctor", "--device", link, "--autobaud-window", "0.5"])
        }
        #expect(doctor.stdout.contains("is open in gpsfence record (pid \(pid))"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("no state file"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("is read by gpsfence"), "\(doctor.stdout)")
    }

    /// On a machine without a USB bus (a container, a CI runner: this test's machine decides),
    /// `doctor` says how to get a receiver there instead of "plug the receiver in".
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/sys/bus/usb")))
    func doctorWithoutAUSBBusSaysWhatHelps() throws {
        let doctor = try runGPSFence(["doctor"], environment: [:])
        #expect(doctor.stdout.contains("this machine has no USB bus"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("fix: pass a USB receiver through to this machine"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("plug the receiver in"), "\(doctor.stdout)")
    }

    @Test func doctorLeavesARunningRunAloneAndASecondRunIsRefused() throws {
        let folder = temporaryDirectory()
        let (fences, route) = try RunCommandTests().writeFiles(folder)
        let link = folder.appendingPathComponent("gps0").path
        let state = folder.appendingPathComponent("state.sqlite").path
        let simulator = try BackgroundGPSFence([
            "simulate", route, "--baud", "38400", "--rate", "5", "--speed", "10", "--link", link, "--loop",
        ])
        _ = simulator.readFirstLine()
        defer {
            simulator.signal(SIGTERM)
            _ = simulator.finish()
        }
        let run = try BackgroundGPSFence([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", state, "--json",
        ])
        let output = LineCollector(run.output.fileHandleForReading)
        #expect(output.wait { types($0).contains("device_connected") }, "\(output.all)")
        #expect(waitForAFixOnFile(state), "the run never wrote a fix")
        let pid = run.process.processIdentifier

        let doctor = try runGPSFence(["doctor", "--device", link, "--autobaud-window", "0.5"], environment: [:])
        #expect(
            doctor.stdout.contains("is read by gpsfence (pid \(pid)); doctor leaves the port alone"), "\(doctor.stdout)"
        )
        #expect(doctor.stdout.contains("its state file \(state): monitoring"), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("its last fix: 47.0"), "\(doctor.stdout)")
        #expect(!doctor.stdout.contains("valid NMEA"), "doctor read the port: \(doctor.stdout)")

        // The same state file, another (missing) device: refused before anything is opened.
        let sameState = try refused([
            "run", "--device", folder.appendingPathComponent("no-gps").path, "--fences", fences, "--state", state,
        ])
        #expect(sameState.status == 1, "\(sameState.stderr)")
        #expect(
            sameState.stderr.contains("'\(state)' is in use by another gpsfence run (pid \(pid))"),
            "\(sameState.stderr)")

        // The same port, another state file.
        let otherState = folder.appendingPathComponent("other.sqlite").path
        let samePort = try refused([
            "run", "--device", link, "--baud", "38400", "--fences", fences, "--state", otherState,
        ])
        #expect(samePort.status == 1, "\(samePort.stderr)")
        #expect(samePort.stderr.contains("another gpsfence (pid \(pid))"), "\(samePort.stderr)")

        // The commands that write the state file as a run does are refused the same way: a
        // replay, a sync by hand, a forget.
        let writers = [
            ["replay", "captures/gym/capture.nmea", "--fences", "captures/gym/fences.geojson", "--state", state],
            ["sync", "--state", state, "--sync", "http://127.0.0.1:9/track", "--drain-timeout", "1"],
            ["status", "--state", state, "--forget", "http://127.0.0.1:9/hook"],
        ]
        for arguments in writers {
            let writer = try runGPSFence(arguments)
            #expect(writer.status == 1, "\(arguments[0]): \(writer.stderr)")
            #expect(
                writer.stderr.contains("'\(state)' is in use by another gpsfence run (pid \(pid))"),
                "\(arguments[0]): \(writer.stderr)")
        }

        // Nothing happens: the run keeps its receiver for a second after the refusals.
        usleep(1_000_000)
        run.signal(SIGTERM)
        #expect(run.finish().status == 0)
        output.finish()
        let seen = types(output.all)
        #expect(!seen.contains("device_lost"), "the run lost its receiver: \(output.all)")
        #expect(seen.filter { $0 == "device_connected" }.count == 1, "\(output.all)")
    }
}
