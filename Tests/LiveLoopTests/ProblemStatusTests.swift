import Delivery
import Foundation
import Platform
import Store
import Testing
import Views

@testable import Jobs
@testable import LiveLoop
@testable import Tools

/// Problems are values: the exit status comes from what the problem is, the words from its one
/// rendering, and the same problem has the same status whichever command meets it.
@Suite struct ProblemStatusTests {
    /// A folder of its own under the temporary folder, removed by the caller.
    func scratchFolder() throws -> String {
        try makeTemporaryFolder(prefix: FileManager.default.temporaryDirectory.path + "/gpsfence-problems-")
    }

    func problem(_ body: () throws -> Void) -> (error: (any Error)?, status: Jobs.ExitStatus?, message: String?) {
        do {
            try body()
            return (nil, nil, nil)
        } catch {
            let classified = classify(error)
            return (error, classified?.status, classified?.message)
        }
    }

    @Test func aMissingStateFileIsBadInputInEveryCommandThatReadsOne() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let missing = folder + "/nothing-here.sqlite"
        let sync = try TrackSyncConfiguration(target: "http://127.0.0.1:9/track", device: "van")
        let commands: [(String, () throws -> Void)] = [
            ("status", { _ = try StatusReport.read(statePath: missing, now: 0) }),
            ("status --forget", { _ = try ForgetTargetJob(statePath: missing, target: "x").run() }),
            ("visits", { _ = try VisitsJob(statePath: missing).report() }),
            ("report", { _ = try ReportJob(input: .state(path: missing, since: nil), fencesPath: nil).gather() }),
            ("sync", { _ = try SyncJob(statePath: missing, configuration: sync).run() }),
            ("fences add --here", { _ = try FenceAddJob(statePath: missing, name: "here", radius: 20).run(now: 0) }),
            ("ack", { _ = try AckJob(statePath: missing).run() }),
        ]
        for (command, body) in commands {
            let (error, status, message) = problem(body)
            #expect((error as? StateFileMissing)?.path == missing, "\(command): \(String(describing: error))")
            #expect(status == .badInput, "\(command)")
            #expect(message?.hasPrefix("no state file at '\(missing)'") == true, "\(command): \(message ?? "none")")
        }
        // Reading never makes the file it did not find.
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test func noAlarmToAnswerIsARuntimeFailureNamingTheStateFile() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.sqlite"
        _ = try StateStore(path: path)
        let (error, status, message) = problem { _ = try AckJob(statePath: path).run() }
        guard case .alarmAnswer(let statePath, .noAlarm)? = error as? RuntimeFailure else {
            Issue.record("not a RuntimeFailure.alarmAnswer(.noAlarm): \(String(describing: error))")
            return
        }
        #expect(statePath == path)
        #expect(status == .runtimeFailure)
        #expect(message == "no alarm is sounding (state file \(path))")
    }

    @Test func aStateFileWithoutAFixCannotPlaceAFenceHere() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/state.sqlite"
        _ = try StateStore(path: path)
        let (error, status, message) = problem {
            _ = try FenceAddJob(statePath: path, name: "here", radius: 20).run(now: 0)
        }
        guard case .stateFile(path, .noFix)? = error as? InputError else {
            Issue.record("not InputError.stateFile(.noFix): \(String(describing: error))")
            return
        }
        #expect(status == .badInput)
        #expect(message == "the state file '\(path)' holds no fix yet: is 'gpsfence run' receiving?")
    }

    @Test func aCaptureGivenAsADeviceIsToldTheCommandThatReadsIt() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capture = folder + "/drive.nmea"
        try Data("$GPRMC,120000.00,A,4717.11,N,00833.91,E,0.0,0.0,010126,,,A*5C\r\n".utf8)
            .write(to: URL(fileURLWithPath: capture))
        let port = DeviceChoice.port(.init(path: capture, info: nil, note: nil))
        let (decodeError, decodeStatus, decodeMessage) = problem {
            _ = try LiveDecodeJob(device: port).run(output: .standardOutput, log: { _ in })
        }
        guard case .notADevice(capture, true, .decode)? = decodeError as? InputError else {
            Issue.record("not InputError.notADevice(.decode): \(String(describing: decodeError))")
            return
        }
        #expect(decodeStatus == .badInput)
        #expect(decodeMessage?.contains("'gpsfence decode \(capture)'") == true, "\(decodeMessage ?? "none")")
        #expect(decodeMessage?.contains("replay") == false, "\(decodeMessage ?? "none")")
        let replay = try #require(RunJob.notADevice(capture))
        #expect(replay.message.contains("'gpsfence replay \(capture) --fences FENCES'"), "\(replay.message)")
    }

    @Test func aBadBrokerURLForFencesNamesFencesNotMQTT() throws {
        let (error, status, message) = problem {
            _ = try BrokerFences.configuration(fences: "mqtt://broker.example", caFile: nil)
        }
        #expect(error is MQTTConfigurationError, "\(String(describing: error))")
        #expect(status == .badInput)
        #expect(message?.hasPrefix("--fences mqtt://broker.example: ") == true, "\(message ?? "none")")
        #expect(message?.contains("--mqtt") == false, "\(message ?? "none")")
    }

    @Test func aFileOfTheWrongKindForFencesIsBadInputSayingWhatItIs() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gpx = folder + "/walk.gpx"
        try Data(#"<?xml version="1.0"?><gpx version="1.1"><trk><trkseg></trkseg></trk></gpx>"#.utf8)
            .write(to: URL(fileURLWithPath: gpx))
        let (error, status, message) = problem { _ = try FenceFile.load(gpx) }
        guard case .wrongKind(gpx, .gpx, .fences)? = error as? InputError else {
            Issue.record("not InputError.wrongKind(.gpx, .fences): \(String(describing: error))")
            return
        }
        #expect(status == .badInput)
        #expect(message?.contains("'gpsfence fences import \(gpx) --output fences.geojson'") == true)
    }

    @Test func aWriteThatFailsOnAnOpenFileIsARuntimeFailureNamingIt() throws {
        // /dev/full opens, and every write to it fails for want of space.
        let file = try CaptureOutput(path: "/dev/full").open()
        let (error, status, message) = problem { try file.write(lines: ["$GPTXT,01,01,02,test*00"]) }
        guard case .unwritable(let path, _)? = error as? RuntimeFailure else {
            Issue.record("not RuntimeFailure.unwritable: \(String(describing: error))")
            return
        }
        #expect(path == "/dev/full")
        #expect(status == .runtimeFailure)
        #expect(message?.hasPrefix("cannot write '/dev/full': ") == true, "\(message ?? "none")")
    }

    @Test func aCaptureOutputThatCannotBeCreatedIsBadInputNamingIt() {
        let (error, status, message) = problem { _ = try CaptureOutput(path: "/nonexistent-folder/c.nmea").open() }
        guard case .unwritable("/nonexistent-folder/c.nmea", _)? = error as? InputError else {
            Issue.record("not InputError.unwritable: \(String(describing: error))")
            return
        }
        #expect(status == .badInput)
        #expect(message?.hasPrefix("cannot write '/nonexistent-folder/c.nmea': ") == true, "\(message ?? "none")")
    }
}
