import Foundation
import JSONOutput
import NMEA
import Platform
import Presentation
import Testing
import Waiting

@testable import Delivery
@testable import Events
@testable import Fences

/// A fence whose name and properties are hostile to shells.
let hostileName = #"Bridge "$(touch /tmp/PWNED)"; rm -rf ~ `id` \n"#
let fencesJSON = """
    {"type":"FeatureCollection","features":[{"type":"Feature","id":"b-1","geometry":{"type":"Point","coordinates":[8.5,47.3]},
     "properties":{"radius":20,"name":\(JSONLine.quoted(hostileName)),"note":"$HOME;|&"}}]}
    """

func enterEvent(_ fences: FenceSet) -> OutgoingEvent {
    let event = GeofenceEvent(
        .enter(GeofenceEvent.Enter(fence: 0, initial: false)), time: UTCTime(millisecondsSinceEpoch: 1_770_113_740_000),
        location: GeofenceEvent.Location(latitude: 47.3, longitude: 8.5, accuracy: 4.5, speed: 25, track: 90))
    return OutgoingEvent(event, fences: fences)
}

/// An enter of fence 0 flagged too_low.
let tooLowEnter = GeofenceEvent.Payload.enter(GeofenceEvent.Enter(fence: 0, initial: false, restrictions: [.clearance]))

func temporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfence-alerts-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// Writes an executable script (the hook a user would write; gpsfence itself never runs a shell).
func script(_ folder: URL, _ name: String, _ body: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try ("#!/bin/sh\n" + body).write(to: url, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url.path
}

final class Reports: @unchecked Sendable {
    let lines = Locked<[String]>([])
    let values = Locked<[Problem]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    /// A problem as a value (hooks report so), kept as it is and as its text in `all`.
    func add(_ problem: Problem) {
        values.withLock { $0.append(problem) }
        add(problem.text)
    }
    var all: [String] { lines.withLock { $0 } }
    var problems: [Problem] { values.withLock { $0 } }
}

@Suite struct ExecHookTests {
    @Test func hookGetsTheEventOnStdinAndInItsEnvironmentWithoutAShell() throws {
        let folder = try temporaryFolder()
        let out = folder.appendingPathComponent("out")
        // The hook copies its stdin and environment to files; `env` output is data, not code.
        let hook = try script(folder, "hook", "cat > '\(out.path).json'\nenv > '\(out.path).env'\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [hook], report: reports.add)
        let event = enterEvent(fences)
        sink.deliver(event, fences: fences)
        sink.finish()
        #expect(reports.all.isEmpty)
        let json = try String(contentsOf: URL(fileURLWithPath: out.path + ".json"), encoding: .utf8)
        #expect(json == event.json + "\n")
        let environment = try String(contentsOf: URL(fileURLWithPath: out.path + ".env"), encoding: .utf8)
        #expect(environment.contains("GPSFENCE_EVENT=enter\n"))
        #expect(environment.contains("GPSFENCE_FENCE_ID=b-1\n"))
        #expect(environment.contains("GPSFENCE_FENCE_NAME=" + hostileName))
        #expect(environment.contains("GPSFENCE_LAT=47.3\n"))
        #expect(environment.contains("GPSFENCE_LON=8.5\n"))
        #expect(environment.contains("GPSFENCE_TIME=2026-02-03T10:15:40.000Z\n"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/PWNED"), "a fence name ran as shell code")
    }

    @Test func failingAndHangingHooksAreReportedAndKilled() throws {
        let folder = try temporaryFolder()
        let failing = try script(folder, "fails", "exit 3\n")
        let hanging = try script(folder, "hangs", "exec sleep 30\n")
        let fences = try FenceSet.parse(fencesJSON)
        let reports = Reports()
        let sink = try ExecHookSink(programs: [failing, hanging], timeout: 0.5, report: reports.add)
        sink.deliver(enterEvent(fences), fences: fences)
        // Both reports before the stop: a stop that came first would kill the hanging hook for
        // stopping (its own report), not for its time limit, when its worker started it late.
        #expect(waitUntil(timeout: 10, every: 0.05) { reports.all.count == 2 }, "\(reports.all)")
        sink.finish()
        let all = reports.all.sorted()
        #expect(all.count == 2)
        #expect(all.contains { $0.contains("fails exited with status 3") })
        #expect(all.contains { $0.contains("hangs took longer than") && $0.contains("killed") })
    }

    @Test func atMostTheConcurrencyBoundRunAtOnce() throws {
        let folder = try temporaryFolder()
        let log = folder.appendingPathComponent("log").path
        // Each run records "+" when it starts and "-" when it ends.
        let hook = try script(folder, "slow", "echo + >> '\(log)'\nsleep 0.3\necho - >> '\(log)'\n")
        let fences = try FenceSet.parse(fencesJSON)
        let sink = try ExecHookSink(programs: [hook], concurrency: 2, report: { _ in })
        for _ in 0..<6 { sink.deliver(enterEvent(fences), fences: fences) }
        sink.finish()
        var running = 0
        var most = 0
        for mark in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            running += mark == "+" ? 1 : -1
            most = max(most, running)
        }
        #expect(most == 2)
        #expect(running == 0)
    }

    @Test func deliverNeverWaitsForAHook() throws {
        let folder = try temporaryFolder()
        let marker = folder.appendingPathComponent("done").path
        let hook = try script(folder, "late", "sleep 1\ntouch '\(marker)'\n")
        let fences = try FenceSet.parse(fencesJSON)
        let sink = try ExecHookSink(programs: [hook], report: { _ in })
        sink.deliver(enterEvent(fences), fences: fences)
        // deliver returned while the hook is still sleeping.
        #expect(!FileManager.default.fileExists(atPath: marker))
        sink.finish()
        #expect(FileManager.default.fileExists(atPath: marker))
    }

    @Test func unknownProgramIsRefusedUpFront() throws {
        #expect(throws: HookError.self) { try ExecHookSink(programs: ["no-such-hook-program-here"], report: { _ in }) }
        let plain = try temporaryFolder().appendingPathComponent("not-executable").path
        try #require(
            FileManager.default.createFile(
                atPath: plain, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(throws: HookError.self) { try ExecHookSink(programs: [plain], report: { _ in }) }
    }
}

@Suite struct BellAndNotifyTests {
    @Test func bellWritesBELForTheChosenTypesOnly() throws {
        let folder = try temporaryFolder()
        let device = folder.appendingPathComponent("tty").path
        try #require(FileManager.default.createFile(atPath: device, contents: nil))
        let fences = try FenceSet.parse(fencesJSON)
        let sink = BellSink(device: device, report: { _ in })
        sink.deliver(enterEvent(fences), fences: fences)
        var exit = enterEvent(fences).event
        exit.payload = .exit(GeofenceEvent.Exit(fence: 0))
        sink.deliver(OutgoingEvent(exit, fences: fences), fences: fences)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)) == Data([0x07]))
    }

    /// `--bell-on exit`: an ordinary enter stays quiet, an enter flagged too_low rings anyway
    /// (docs/fences.md, "Rules").
    @Test func tooLowRingsWhateverTypesWereChosen() throws {
        let folder = try temporaryFolder()
        let device = folder.appendingPathComponent("tty").path
        try #require(FileManager.default.createFile(atPath: device, contents: nil))
        let fences = try FenceSet.parse(fencesJSON)
        let sink = BellSink(types: [.exit], device: device, report: { _ in })
        sink.deliver(enterEvent(fences), fences: fences)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)).isEmpty)
        var tooLow = enterEvent(fences).event
        tooLow.payload = tooLowEnter
        sink.deliver(OutgoingEvent(tooLow, fences: fences), fences: fences)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)) == Data([0x07]))
    }

    /// On a terminal a too_low event is red whatever its kind, and says so in words too.
    @Test func tooLowIsRedOnTheConsole() throws {
        let fences = try FenceSet.parse(fencesJSON)
        var event = enterEvent(fences).event
        let plain = ConsoleSink.humanLine(event, fences: fences, color: true)
        event.payload = tooLowEnter
        let flagged = ConsoleSink.humanLine(event, fences: fences, color: true)
        #expect(!plain.contains(ConsoleSink.restrictionColor) && !plain.contains("TOO LOW"))
        #expect(flagged.contains(ConsoleSink.restrictionColor + "enter"))
        #expect(flagged.contains("TOO LOW"))
        #expect(!ConsoleSink.humanLine(event, fences: fences, color: false).contains("\u{1B}"))
    }

    /// A visit says how long it lasted and a dwell how long the receiver has been inside; a kind
    /// whose duration means neither shows none.
    @Test func theConsoleSaysWhatADurationMeans() throws {
        let fences = try FenceSet.parse(fencesJSON)
        var event = enterEvent(fences).event
        func line(_ payload: GeofenceEvent.Payload) -> String {
            event.payload = payload
            return ConsoleSink.humanLine(event, fences: fences, color: false)
        }
        let visit = GeofenceEvent.Payload.visit(
            GeofenceEvent.Visit(fence: 0, enterTime: event.time, exitTime: event.time, duration: 1248))
        let dwell = GeofenceEvent.Payload.dwell(GeofenceEvent.Dwell(fence: 0, enterTime: event.time, duration: 1248))
        #expect(line(visit).hasSuffix("stayed 20 min 48 s"), "\(line(visit))")
        #expect(line(dwell).hasSuffix("inside for 20 min 48 s"), "\(line(dwell))")
        for payload in [GeofenceEvent.Payload.enter(GeofenceEvent.Enter(fence: 0, initial: false)), .stationary] {
            #expect(!line(payload).contains("20 min"), "\(line(payload))")
        }
    }

    /// `registered` says how many fences are watched: after a good file is restored none of its
    /// fences is new, and the line must not read as "no fences".
    @Test func registeredSaysHowManyFencesAreWatched() throws {
        let fences = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[
             {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[8.5,47.3]},"properties":{"radius":20}},
             {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[8.6,47.3]},"properties":{"radius":20}},
             {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[8.7,47.3]},"properties":{"radius":20}}]}
            """)
        func line(_ arrivals: [Int]) -> String {
            let event = GeofenceEvent(
                .registered(fences: arrivals, message: nil), time: UTCTime(millisecondsSinceEpoch: 1_770_113_740_000))
            return ConsoleSink.humanLine(event, fences: fences, color: false)
        }
        #expect(line([]).hasSuffix("registered        3 fences watched, 0 new or changed"), "\(line([]))")
        #expect(line([2]).hasSuffix("3 fences watched, 1 new or changed: c"), "\(line([2]))")
        #expect(line([0, 1, 2]).hasSuffix("3 fences watched: a, b, c"), "\(line([0, 1, 2]))")
    }

    /// The anchor's exit is the anchor watch's alarm: it rings even when exit is not a chosen type;
    /// another fence's exit, or a file fence that is merely called `anchor`, does not.
    @Test func bellRingsOnTheAnchorsExit() throws {
        let folder = try temporaryFolder()
        let device = folder.appendingPathComponent("tty").path
        try #require(FileManager.default.createFile(atPath: device, contents: nil))
        let file = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"b-1","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20}}]}
            """)
        var layers = FenceLayers(main: file)
        layers.anchor = LayerCircle(
            layer: .anchor, id: "anchor", name: "Anchor", circle: CircleShape(lat: 47.3, lon: 8.5, radius: 40))
        let fences = layers.combined().set
        let sink = BellSink(types: [.enter], device: device, report: { _ in })
        var exit = enterEvent(fences).event
        exit.payload = .exit(GeofenceEvent.Exit(fence: 0))
        sink.deliver(OutgoingEvent(exit, fences: fences), fences: fences)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)).isEmpty, "another fence's exit")
        exit.payload = .exit(GeofenceEvent.Exit(fence: 1))
        sink.deliver(OutgoingEvent(exit, fences: fences), fences: fences)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)) == Data([0x07]), "the anchor's exit")

        let namedAnchor = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"anchor","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20}}]}
            """)
        exit.payload = .exit(GeofenceEvent.Exit(fence: 0))
        sink.deliver(OutgoingEvent(exit, fences: namedAnchor), fences: namedAnchor)
        #expect(try Data(contentsOf: URL(fileURLWithPath: device)) == Data([0x07]))
    }

    /// `--say`: a speeding event is said with both speeds in whole km/h (12.5 m/s is 45 km/h, 8.4 m/s
    /// is 30.24, said 30); an enter flagged too_low starts with the warning.
    @Test func spokenSentencesOfTheFenceRules() throws {
        let yard = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"y","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20,"name":"Yard"}}]}
            """)
        var event = enterEvent(yard).event
        #expect(SaySink.sentence(for: event, fences: yard) == "Entering Yard")
        event.payload = tooLowEnter
        #expect(SaySink.sentence(for: event, fences: yard) == "Too low! Entering Yard")
        // With its clearance (3.2 m, 10'6" is 3.2004 m), as the issue's example says it.
        let bridge = try FenceSet.parse(
            """
            {"type":"FeatureCollection","features":[{"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[8.5,47.3]},
             "properties":{"radius":20,"name":"Low bridge","clearance":3.2004}}]}
            """)
        var approach = enterEvent(bridge).event
        approach.payload = .approach(
            GeofenceEvent.Approach(fence: 0, distance: 1630, eta: 65, restrictions: [.clearance]))
        #expect(
            SaySink.sentence(for: approach, fences: bridge) == "Too low! Low bridge, 3 metres 20, in 1.6 kilometres")
        event.payload = .speeding(GeofenceEvent.Speeding(fence: 0, speed: 12.5, limit: 8.4))
        #expect(
            SaySink.sentence(for: event, fences: yard)
                == "Too fast in Yard: 45 kilometres an hour, the limit is 30 kilometres an hour")
        // In the driver's units: 1630 m is 1.01 miles; 12.5 m/s is 27.96 mph or 24.3 kn (the vehicle's
        // speed, rounded up: 28 mph, 25 kn), 8.4 m/s 18.79 mph or 16.3 kn (the limit, rounded down:
        // 18 mph, never 19).
        #expect(
            SaySink.sentence(for: approach, fences: bridge, units: .imperial)
                == "Too low! Low bridge, 10 feet 6, in 1 mile")
        #expect(
            SaySink.sentence(for: event, fences: yard, units: .imperial)
                == "Too fast in Yard: 28 miles an hour, the limit is 18 miles an hour")
        #expect(
            SaySink.sentence(for: event, fences: yard, units: .nautical)
                == "Too fast in Yard: 25 knots, the limit is 16 knots")
    }

    /// A notification and a console line in the user's zone and units: 01:30Z on 1 March is 20:30
    /// on 28 February in New York; 1630 m is 1.01 mi.
    @Test func notificationsAndConsoleLinesInTheUsersZone() throws {
        let fences = try FenceSet.parse(fencesJSON)
        var event = enterEvent(fences).event
        event.payload = .approach(GeofenceEvent.Approach(fence: 0, distance: 1630, eta: 65))
        event.time = UTCTime(millisecondsSinceEpoch: 1_772_328_600_000)
        let format = HumanFormat(calendar: try #require(LocalCalendar(named: "America/New_York")), units: .imperial)
        let body = try #require(NotifySink.arguments(for: event, fences: fences, format: format).last)
        #expect(body.contains(" at 20:30:00-05:00, 1.01 mi ahead"), "\(body)")
        let line = ConsoleSink.humanLine(event, fences: fences, color: false, format: format)
        #expect(line.hasPrefix("2026-02-28 20:30:00-05:00  approach"), "\(line)")
        #expect(line.contains("1.01 mi ahead"), "\(line)")
        #expect(ConsoleSink.humanLine(event, fences: fences, color: false).hasPrefix("2026-03-01 01:30:00Z  approach"))
    }

    /// notify-send's urgency: critical for what asks for action now (approach, speeding, error, and
    /// anything flagged too_low), normal for the rest.
    @Test func notificationUrgencyFollowsTheKind() throws {
        let fences = try FenceSet.parse(fencesJSON)
        func urgency(_ kind: GeofenceEvent.Kind, restrictions: BrokenRestrictions = []) -> String? {
            var event = enterEvent(fences).event
            event.payload =
                switch kind {
                case .enter: .enter(GeofenceEvent.Enter(fence: 0, initial: false, restrictions: restrictions))
                case .exit: .exit(GeofenceEvent.Exit(fence: 0))
                case .speeding: .speeding(GeofenceEvent.Speeding(fence: 0, speed: 12.5, limit: 8.4))
                case .approach:
                    .approach(GeofenceEvent.Approach(fence: 0, distance: 1630, eta: 65, restrictions: restrictions))
                case .error: .error(problem: .readBack("a problem"), wallTime: nil)
                case .integrity:
                    .integrity(GeofenceEvent.Integrity(state: .jammed, reasons: [.cn0Drop], since: event.time))
                case .dwell, .visit, .cross, .fixLost, .fixAcquired, .deviceLost, .deviceConnected, .heartbeat,
                    .registered, .unregistered, .stationary, .moving, .anchorWarning, .alarm, .alarmAcknowledged,
                    .alarmCleared:
                    preconditionFailure("\(kind) is not asked about here")
                }
            return NotifySink.arguments(for: event, fences: fences).first { $0.hasPrefix("--urgency=") }
        }
        #expect(urgency(.enter) == "--urgency=normal")
        #expect(urgency(.exit) == "--urgency=normal")
        #expect(urgency(.speeding) == "--urgency=critical")
        #expect(urgency(.approach) == "--urgency=critical")
        #expect(urgency(.error) == "--urgency=critical")
        #expect(urgency(.integrity) == "--urgency=critical")
        #expect(urgency(.enter, restrictions: [.clearance]) == "--urgency=critical")
    }

    @Test func bellWithoutATerminalSaysSoOnce() {
        let reports = Reports()
        _ = BellSink(device: "/nonexistent/tty", report: reports.add)
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("no terminal") == true)
    }

    @Test func bellTypesParse() {
        #expect((try? BellSink.types("enter,exit").get()) == [.enter, .exit])
        guard case .failure(let error) = BellSink.types("enter,bogus") else {
            Issue.record("accepted bogus")
            return
        }
        #expect(error.name == "bogus")
    }

    @Test func notifyWithoutADesktopSessionSaysSoOnceAndCarriesOn() throws {
        let reports = Reports()
        let sink = NotifySink(environment: ["PATH": "/usr/bin:/bin"], report: reports.add)
        #expect(!sink.isActive)
        #expect(reports.all.count == 1 && reports.all[0].contains("no desktop session"))
        let fences = try FenceSet.parse(fencesJSON)
        sink.deliver(enterEvent(fences), fences: fences)
        sink.finish()
        #expect(reports.all.count == 1)
    }

    /// No desktop session exists on CI: a stand-in `notify-send` records its arguments, to show the
    /// name arrives as one argument and never as shell code.
    @Test func notifyPassesTheNameAsAnArgument() throws {
        let folder = try temporaryFolder()
        let record = folder.appendingPathComponent("argv").path
        _ = try script(folder, "notify-send", "for a in \"$@\"; do printf '%s\\n--\\n' \"$a\" >> '\(record)'; done\n")
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        setenv("PATH", path, 1)
        defer { setenv("PATH", String(path.dropFirst(folder.path.count + 1)), 1) }
        let sink = NotifySink(environment: ["DISPLAY": ":0", "PATH": path], report: { _ in })
        #expect(sink.isActive)
        let fences = try FenceSet.parse(fencesJSON)
        sink.deliver(enterEvent(fences), fences: fences)
        sink.finish()
        let arguments = try String(contentsOfFile: record, encoding: .utf8).components(separatedBy: "\n--\n")
        #expect(arguments.contains("gpsfence: enter"))
        #expect(arguments.contains(hostileName + " (b-1) at 10:15:40Z"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/PWNED"))
    }

    /// A `notify-send` that hangs (a stuck session bus) is killed after the sink's timeout and
    /// reported; `finish()` does not wait for it.
    @Test func aHungNotifySendCannotHoldFinish() throws {
        let folder = try temporaryFolder()
        let started = folder.appendingPathComponent("started").path
        _ = try script(folder, "notify-send", "echo $$ > '\(started)'\nsleep 30\n")
        let reports = Reports()
        let sink = NotifySink(
            environment: ["DISPLAY": ":0", "PATH": folder.path + ":/usr/bin:/bin"], timeout: 0.5, report: reports.add)
        #expect(sink.isActive)
        let fences = try FenceSet.parse(fencesJSON)
        let before = monotonicSeconds()
        sink.deliver(enterEvent(fences), fences: fences)
        sink.finish()
        let took = monotonicSeconds() - before
        #expect(took < 5, "finish took \(took) s")
        #expect(FileManager.default.fileExists(atPath: started))
        #expect(reports.all.contains { $0.contains("notify-send took longer than 0.5 s") }, "\(reports.all)")
    }
}
