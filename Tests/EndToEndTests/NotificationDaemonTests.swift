import Foundation
import Testing
import Waiting

#if canImport(Glibc)
    import Glibc
#endif

/// The alarm's notification as a desktop shows it (docs/running.md, "Alarms"): Debian's
/// `notify-send` (libnotify-bin) talking to a real notification daemon, dunst, on a virtual X
/// display (Xvfb) and a session bus of the test's own (dbus-daemon). What crossed the bus is read
/// from `dbus-monitor`: each `Notify` call with the id the daemon gave it, and each
/// `NotificationClosed`. While the alarm sounds its critical notification stays; an alarm said
/// again (by a run that restarts while it sounds) takes the same notification's place; once it is
/// answered, the answer's notification replaces it and is closed, and nothing of it is left up.
@Suite(.serialized) struct NotificationDaemonTests {
    static let programs = [
        "/usr/bin/notify-send", "/usr/bin/dunst", "/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-send",
        "/usr/bin/dbus-monitor",
    ]

    /// A `Notify` call seen on the bus, with the id the daemon answered.
    struct Notification {
        var summary: String
        var replaces: Int
        var urgency: Int?
        var expireTimeout: Int
        var id: Int?
    }

    /// A desktop of the test's own: its bus, its display, the daemon and a monitor on them.
    final class Desktop {
        private(set) var environment: [String: String] = [:]
        private var processes: [Process] = []
        let monitorLog: URL

        init(in folder: URL) throws {
            monitorLog = folder.appendingPathComponent("monitor.log")
            let bus = folder.appendingPathComponent("bus").path
            let address = "unix:path=" + bus
            let base = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
            @discardableResult
            func start(_ path: String, _ arguments: [String], _ environment: [String: String], output: Any? = nil)
                throws -> Process
            {
                // With the signal mask cleared: a child of the test process would ignore SIGTERM.
                let process = childProcess(path, arguments)
                process.environment = environment
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = output ?? FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                processes.append(process)
                return process
            }
            try start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address], base)
            guard waitUntil(timeout: 20, { FileManager.default.fileExists(atPath: bus) }) else {
                throw HarnessError("dbus-daemon made no bus at \(bus)")
            }
            // Xvfb picks a free display itself and writes its number (helpers run tests side by side).
            let displayPipe = Pipe()
            try start(
                "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"], base,
                output: displayPipe)
            let display = LineCollector(displayPipe.fileHandleForReading)
            guard display.wait(timeout: 30, until: { $0.first.flatMap { Int($0) } != nil }),
                let number = display.all.first.flatMap({ Int($0) })
            else { throw HarnessError("Xvfb did not say which display it opened") }
            environment = base.merging(["DBUS_SESSION_BUS_ADDRESS": address, "DISPLAY": ":\(number)"]) { $1 }
            // An idle user would keep every notification up (dunst's idle_threshold): none here.
            let config = folder.appendingPathComponent("dunstrc")
            try "[global]\n    idle_threshold = 0\n".write(to: config, atomically: true, encoding: .utf8)
            try start("/usr/bin/dunst", ["-config", config.path], environment)
            try #require(FileManager.default.createFile(atPath: monitorLog.path, contents: nil))
            try start(
                "/usr/bin/dbus-monitor", ["--session"], environment, output: try FileHandle(forWritingTo: monitorLog))
            let environment = self.environment
            guard waitUntil(timeout: 20, every: 0.2, { Self.count("displayedLength", environment) != nil }) else {
                throw HarnessError("dunst did not come up on the test's bus")
            }
            // The monitor is listening once it saw one of the daemon's answers. It may have started
            // listening after the answer above, so each look asks again.
            guard
                waitUntil(
                    timeout: 20, every: 0.2,
                    {
                        _ = Self.count("displayedLength", environment)
                        return self.monitored().contains("method return")
                    })
            else {
                throw HarnessError("dbus-monitor saw nothing on the test's bus")
            }
        }

        /// One of dunst's counters (`displayedLength`, `waitingLength`) read over the bus.
        static func count(_ property: String, _ environment: [String: String]) -> Int? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
            process.arguments = [
                "--session", "--print-reply=literal", "--dest=org.freedesktop.Notifications",
                "/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties.Get",
                "string:org.dunstproject.cmd0", "string:\(property)",
            ]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return nil }
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) }
        }

        func count(_ property: String) -> Int? { Self.count(property, environment) }

        /// Every notification of the run was closed but its `error`s, which are critical and stay
        /// until the user closes them (the run has no terminal for `--bell` here: it says so), and
        /// those are all that is shown.
        var onlyErrorsLeft: Bool {
            let notifications = notifications()
            let errors = Set(notifications.filter { $0.summary == "gpsfence: error" }.compactMap(\.id))
            let others = Set(notifications.compactMap(\.id)).subtracting(errors)
            return others.isSubset(of: Set(closed())) && count("displayedLength") == errors.count
                && count("waitingLength") == 0
        }

        func monitored() -> String { (try? String(contentsOf: monitorLog, encoding: .utf8)) ?? "" }

        /// The messages `dbus-monitor` printed: a header line, then the arguments, one a line.
        func messages() -> [(header: String, arguments: [String])] {
            var messages: [(header: String, arguments: [String])] = []
            for line in monitored().split(separator: "\n", omittingEmptySubsequences: true) {
                if !line.hasPrefix(" ") {
                    messages.append((String(line), []))
                } else if !messages.isEmpty {
                    messages[messages.count - 1].arguments.append(String(line))
                }
            }
            return messages
        }

        /// The `Notify` calls of `gpsfence`, in order, each with the id the daemon answered.
        func notifications() -> [Notification] {
            let messages = messages()
            func field(_ name: String, _ header: String) -> String? {
                header.split(separator: " ").first { $0.hasPrefix(name + "=") }.map {
                    String($0.dropFirst(name.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: ";"))
                }
            }
            /// The top-level arguments (three spaces in), without their type.
            func values(_ arguments: [String]) -> [String] {
                arguments.filter { $0.hasPrefix("   ") && !$0.hasPrefix("    ") }.map {
                    let text = $0.dropFirst(3)
                    let value = text.drop { $0 != " " }.dropFirst()
                    return value.hasPrefix("\"") && value.hasSuffix("\"")
                        ? String(value.dropFirst().dropLast()) : String(value)
                }
            }
            var found: [Notification] = []
            for (header, arguments) in messages
            where header.hasPrefix("method call") && header.contains("member=Notify") {
                let top = values(arguments)
                guard top.count >= 8, top[0] == "gpsfence" else { continue }
                let urgencyLine = arguments.firstIndex { $0.contains("string \"urgency\"") }.map { $0 + 1 }
                let urgency = urgencyLine.flatMap { arguments.indices.contains($0) ? arguments[$0] : nil }
                    .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } }
                let sender = field("sender", header)
                let serial = field("serial", header)
                let reply = messages.first {
                    $0.header.hasPrefix("method return") && field("destination", $0.header) == sender
                        && field("reply_serial", $0.header) == serial
                }
                found.append(
                    Notification(
                        summary: top[3], replaces: Int(top[1]) ?? -1, urgency: urgency,
                        expireTimeout: Int(top[top.count - 1]) ?? -2,
                        id: reply.flatMap { Int(values($0.arguments).first ?? "") }))
            }
            return found
        }

        /// The ids of the notifications the daemon closed, in order.
        func closed() -> [Int] {
            messages().filter { $0.header.hasPrefix("signal") && $0.header.contains("member=NotificationClosed") }
                .compactMap { $0.arguments.first?.split(separator: " ").last.flatMap { Int($0) } }
        }

        deinit {
            for process in processes.reversed() where process.isRunning {
                terminate(process, name: process.arguments?.dropFirst(2).first ?? "a desktop program", grace: 10)
            }
        }
    }

    static func requirePrograms() throws {
        for program in programs where !FileManager.default.isExecutableFile(atPath: program) {
            throw HarnessError(
                "\(program) is missing: install Debian's libnotify-bin, dunst, xvfb and dbus (scripts/system-packages.txt)"
            )
        }
    }

    /// The alarm is shown once however often its bell rings, stays while it sounds, and is replaced
    /// by the answer's notification, which is closed; nothing of the run is left on the screen.
    @Test func theAnsweredAlarmsNotificationIsReplacedAndClosed() throws {
        try Self.requirePrograms()
        let folder = temporaryDirectory()
        let desktop = try Desktop(in: folder)
        let (simulator, run, output) = try AlarmSoundsTests.sounding(
            folder, extra: ["--notify"], environment: desktop.environment)
        defer {
            simulator.signal(SIGTERM)
            run.signal(SIGTERM)
            _ = run.finish()
        }
        func alarms() -> [Notification] { desktop.notifications().filter { $0.summary == "gpsfence: alarm" } }
        #expect(waitUntil(timeout: 90, every: 0.2) { alarms().first?.id != nil }, "shown: \(desktop.monitored())")
        let alarm = try #require(alarms().first)
        #expect(alarm.urgency == 2 && alarm.expireTimeout == 0 && alarm.replaces == 0, "critical, stays: \(alarm)")
        let shown = try #require(alarm.id)
        // Ringing for 3 s (three bells at `--alarm-repeat 1`, a span, not a state): the bells put up
        // no notification of their own, and the alarm's stays.
        Thread.sleep(forTimeInterval: 3)
        #expect(alarms().count == 1, "\(desktop.notifications())")
        #expect(!desktop.closed().contains(shown), "closed while sounding")

        try AlarmSoundsTests.answer(folder, output)
        #expect(
            waitUntil(timeout: 90, every: 0.2) {
                desktop.notifications().contains { $0.summary == "gpsfence: alarm_acknowledged" && $0.id != nil }
            }, "\(desktop.notifications())")
        let answer = try #require(desktop.notifications().first { $0.summary == "gpsfence: alarm_acknowledged" })
        #expect(answer.replaces == shown && answer.id == shown, "in the alarm's place: \(answer)")
        // Withdrawn after 10 s; the exit's own (normal) notification expires by itself.
        #expect(waitUntil(timeout: 60, every: 0.5) { desktop.closed().contains(shown) }, "\(desktop.closed())")
        #expect(waitUntil(timeout: 60, every: 0.5) { desktop.onlyErrorsLeft }, "left up: \(desktop.notifications())")
    }

    /// A run killed while its alarm sounds, and started again: the new run says the alarm again in
    /// the notification the first one put up, so that the answer withdraws the only one there is.
    @Test func aRestartedRunsAlarmTakesTheFirstRunsNotification() throws {
        try Self.requirePrograms()
        let folder = temporaryDirectory()
        let desktop = try Desktop(in: folder)
        let (simulator, argv) = try AlarmTests.boat(folder, extra: ["--notify"])
        defer { simulator.signal(SIGTERM) }
        let first = try BackgroundGPSFence(Array(argv.dropFirst()), environment: desktop.environment)
        func alarms() -> [Notification] { desktop.notifications().filter { $0.summary == "gpsfence: alarm" } }
        #expect(waitUntil(timeout: 90, every: 0.2) { alarms().first?.id != nil }, "\(desktop.monitored())")
        let shown = try #require(alarms().first?.id)
        first.signal(SIGKILL)
        _ = first.finish()

        let second = try BackgroundGPSFence(Array(argv.dropFirst()), environment: desktop.environment)
        let output = LineCollector(second.output.fileHandleForReading)
        defer {
            second.signal(SIGTERM)
            _ = second.finish()
        }
        #expect(output.wait(timeout: 90) { types($0).contains("alarm") }, "said again: \(output.all)")
        #expect(waitUntil(timeout: 90, every: 0.2) { alarms().count == 2 && alarms()[1].id != nil }, "\(alarms())")
        let again = try #require(alarms().last)
        #expect(again.replaces == shown && again.id == shown, "in the first run's place: \(again)")

        try AlarmSoundsTests.answer(folder, output)
        #expect(waitUntil(timeout: 60, every: 0.5) { desktop.closed().contains(shown) }, "\(desktop.closed())")
        #expect(waitUntil(timeout: 60, every: 0.5) { desktop.onlyErrorsLeft }, "left up: \(desktop.notifications())")
    }

}
