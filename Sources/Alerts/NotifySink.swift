import Foundation
import Geofence

/// `--notify` (SPEC §7): a desktop notification through the freedesktop notification service, by
/// running `notify-send SUMMARY BODY` (arguments, never a shell command line). Where there is no
/// desktop session (no D-Bus session bus and no display) or no `notify-send`, it says so once and
/// carries on. Notifications are sent from a background queue, one at a time.
public final class NotifySink: EventSink, @unchecked Sendable {
    private let program: String?
    private let queue = DispatchQueue(label: "gpsfence.notify")
    private let report: @Sendable (String) -> Void

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.report = report
        let hasSession =
            environment["DBUS_SESSION_BUS_ADDRESS"] != nil || environment["DISPLAY"] != nil
            || environment["WAYLAND_DISPLAY"] != nil
        let found = try? ExecHookSink.resolve("notify-send")
        switch (hasSession, found) {
        case (true, let path?):
            program = path
        case (false, _):
            program = nil
            report("--notify: no desktop session (no D-Bus session bus, no display); notifications are off")
        case (true, nil):
            program = nil
            report(
                "--notify: notify-send is not installed (Debian: apt-get install libnotify-bin); notifications are off")
        }
    }

    public var isActive: Bool { program != nil }

    public func deliver(_ event: OutgoingEvent, fences: FenceSet) {
        guard let program else { return }
        let arguments = Self.arguments(for: event.event, fences: fences)
        queue.async { [report] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
                process.waitUntilExit()
                if process.terminationStatus != 0 {
                    report("--notify: notify-send exited with status \(process.terminationStatus)")
                }
            } catch {
                report("--notify: \(error.localizedDescription)")
            }
        }
    }

    public func finish() { queue.sync {} }

    /// `gpsfence: enter` / `Low bridge 10'6" (bridge-1) at 10:16:40Z`.
    static func arguments(for event: GeofenceEvent, fences: FenceSet) -> [String] {
        var body = String(event.time.description.dropFirst(11).prefix(8)) + "Z"
        if let fence = event.fence {
            let name = fences.name(fence).map { ConsoleSink.printable($0) + " " } ?? ""
            body = name + "(" + ConsoleSink.plain(fences.ids[fence]) + ") at " + body
        }
        if let distance = event.distance { body += ", \(Limits.int(distance.rounded())) m ahead" }
        let urgency = event.kind == .approach || event.kind == .error ? "critical" : "normal"
        return ["--app-name=gpsfence", "--urgency=\(urgency)", "--", "gpsfence: \(event.kind.rawValue)", body]
    }
}
