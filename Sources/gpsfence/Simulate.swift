import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Receivers
import Tools

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Play a route as a simulated serial GPS on a pseudo-terminal (or a real port).",
        discussion: """
            ROUTE is a GPX track (replayed on its own times, or at --speed when it has none), a \
            GeoJSON LineString (walked at --speed), or an NMEA capture (replayed with its own timing). \
            The pseudo-terminal's path is the first line on standard output. Bytes are paced at \
            --baud, and a reader that sets a different line speed receives framing garbage, as from \
            a real UART, so autobaud can be tested.

            Example:
              gpsfence simulate route.gpx --baud 4800 --rate 1 --loop \\
                --link /tmp/gps0 &
              gpsfence record --device /tmp/gps0 --output drive.nmea \\
                --duration 60
            """
    )

    @Argument(help: "GPX track, GeoJSON LineString or NMEA capture.")
    var route: String

    @Flag(help: "Create a pseudo-terminal (the default).")
    var pty = false

    @Option(help: "Drive this real serial port instead of a pseudo-terminal.")
    var device: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Line speed of the simulated receiver; default: the slowest standard rate that carries --rate "
                + "(9600 at 1 Hz, 57600 at 10 Hz; see docs/hardware.md). Too slow a rate drops sentences, as a receiver does.",
            valueName: "baud"))
    var baud: Int?

    @Option(parsing: .unconditional, help: "Epochs per second. (default: 1.0)", transform: DecimalNumber.read)
    var rate = 1.0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Speed along a route without times, m/s (default 10); given for a GPX with times, its times are ignored and it is walked at this speed.",
            valueName: "m/s"), transform: DecimalNumber.read)
    var speed: Double?

    @Option(
        help: ArgumentHelp(
            "A GPX with times plays this many times as fast (the vehicle moves faster; the receiver's clock does not). (default: 1.0)",
            valueName: "factor"), transform: DecimalNumber.read)
    var timeScale = 1.0

    @Flag(help: "A GPX with times starts now instead of at its own (old) times.")
    var now = false

    @Flag(help: "Start again at the end of the route.")
    var loop = false

    @Flag(
        help:
            "Start the route once a reader has the pseudo-terminal open (by default it plays at once, heard or not, as a receiver does)."
    )
    var waitForReader = false

    @Option(
        help: "Also make this symlink to the pseudo-terminal (a stable path across restarts, like /dev/serial/by-id).")
    var link: String?

    @Option(
        help: ArgumentHelp(
            "Time of the first fix (ISO 8601): for a route without times (default now), and for a GPX with times (moved there).",
            valueName: "time"))
    var start: String?

    @Option(
        help: ArgumentHelp(
            "Emulate this receiver's configuration interface: it answers UBX or PMTK commands, and the rate, sentences and baud it is told take effect on the wire (see docs/hardware.md).",
            valueName: EmulatedReceiver.Model.allCases.map(\.rawValue).joined(separator: "|")))
    var receiver: EmulatedReceiver.Model?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rehearse a jammer on a GPX or GeoJSON route: START seconds in, C/N0 falls on every satellite, satellites are lost, then the fix; it comes back DURATION seconds later (e.g. 60+30).",
            valueName: "start+duration"))
    var jam: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rehearse a spoofer's takeover on a GPX or GeoJSON route, START seconds in: C/N0 flattened near 50 dB-Hz, the receiver's clock stepped 1.8 s, then the position pulled off the route at 3 m/s.",
            valueName: "start"))
    var spoof: String?

    func validate() throws {
        if let jam, case .failure(let problem) = Interference.parseJam(jam) {
            throw ValidationError(.interference(problem))
        }
        if let spoof, case .failure(let problem) = Interference.parseSpoof(spoof) {
            throw ValidationError(.interference(problem))
        }
        if let baud, BaudRate(baud) == nil {
            throw ValidationError(
                .notAChoice(option: "--baud", value: String(baud), choices: BaudRate.supported.map(String.init)))
        }
        if let problem = Limits.simulateRate(rate) ?? Limits.simulateSpeed(speed ?? 10)
            ?? Limits.check("--time-scale", timeScale, .atLeast(0.001), max: 1e6, unit: "times real time")
        {
            throw ValidationError(.outOfRange(problem))
        }
        if now, start != nil { throw ValidationError(.conflict(.exclusive("--now", "--start"))) }
        if pty, device != nil { throw ValidationError(.conflict(.exclusive("--pty", "--device"))) }
        if let start, parseISOTime(start) == nil {
            throw ValidationError(.malformed(option: "--start", value: start, wanted: .isoTime))
        }
    }

    func run() throws {
        var job = SimulateJob(route: try Route.load(path: route))
        job.rate = rate
        job.speed = speed ?? 10
        job.loop = loop
        job.waitsForReader = waitForReader
        job.start = start.flatMap(parseISOTime)
        job.shiftsTimes = now || start != nil
        job.timeScale = timeScale
        job.receiver = receiver
        job.interference = Interference(
            jam: jam.flatMap { try? Interference.parseJam($0).get() },
            spoofStart: spoof.flatMap { try? Interference.parseSpoof($0).get() })
        if case .capture = job.route, !job.interference.isEmpty {
            throw InputError.option(.conflict(.interferenceOnCapture(route: route)))
        }
        if case .track(let points) = job.route, TrackPlayer.isTimed(points) {
            if speed != nil {
                job.ignoresTimes = true
                OutputWriter.standardError.write(
                    line:
                        "gpsfence: \(route) has times; --speed walks it at \(speed!) m/s instead (--time-scale keeps them)"
                )
            }
        } else if timeScale != 1 || now {
            throw InputError.option(.conflict(.timingWithoutTimes(route: route)))
        }
        _ = try job.play(
            device: device, link: link, baud: baud.flatMap { BaudRate($0) },
            announce: { path in
                OutputWriter.standardOutput.write(line: path)
                OutputWriter.standardOutput.flush()
            },
            warn: { OutputWriter.standardError.write(line: "gpsfence: \($0)") })
    }
}

extension EmulatedReceiver.Model: ExpressibleByArgument {}
