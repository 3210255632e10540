import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Platform
import Presentation
import Receivers
import Tools

struct Configure: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Set a u-blox or MediaTek receiver's fix rate, sentences and baud rate.",
        discussion: """
            Identifies the receiver (UBX-MON-VER, $PMTK605), sends the settings (u-blox M8 and older: \
            UBX-CFG-RATE/MSG/PRT/ITFM/CFG; M9/M10: UBX-CFG-VALSET; MediaTek: $PMTK220+300, 314, 251), waits \
            for each acknowledgement (one retry), follows a baud change, and checks what the receiver \
            sends afterwards. Any other receiver is left untouched. A rate whose sentences do not fit \
            the line is refused before anything is sent (or, with --raise-baud, the baud is raised).

            Exit status: 0 configured and verified; 2 bad flags or a rate the line cannot carry; \
            3 the receiver refused a command or a setting did not take effect; 4 the receiver did \
            not answer. See docs/hardware.md and docs/running.md.

            Example:
              gpsfence configure --device /dev/ttyACM0 --rate 5 --sentences RMC,GGA \\
                --baud 38400 --save
            """
    )

    @Option(help: "Device path, or 'auto' for the USB GPS found by libudev.")
    var device = "auto"

    @Option(help: "Line speed the receiver talks at now, or 'auto' to detect it.")
    var lineBaud = "auto"

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Fixes (and outputs) a second.", valueName: "Hz"),
        transform: DecimalNumber.read)
    var rate: Double?

    @Option(help: ArgumentHelp("The NMEA sentences to send, all others off (e.g. RMC,GGA).", valueName: "list"))
    var sentences: String?

    @Option(parsing: .unconditional, help: "New line speed of the receiver; the host port follows it.")
    var baud: Int?

    @Flag(help: "Raise the baud rate when the sentences at --rate do not fit the line (instead of refusing).")
    var raiseBaud = false

    @Flag(help: "Also store the settings in battery-backed RAM and flash (u-blox).")
    var save = false

    @Flag(
        help:
            "Turn on the receiver's own jamming and spoofing reports (u-blox: the jamming monitor, UBX-NAV-STATUS, and UBX-MON-HW on M8 or UBX-MON-RF and UBX-SEC-SIG on M9/M10), which gpsfence reads between the sentences."
    )
    var integrity = false

    @Flag(help: "Identify the receiver and print the commands, send none.")
    var dryRun = false

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Seconds to wait for each acknowledgement (then one retry). (default: 1.0)", valueName: "seconds"),
        transform: DecimalNumber.read)
    var timeout = 1.0

    func validate() throws {
        if rate == nil, sentences == nil, baud == nil, !save, !integrity, !dryRun {
            throw ValidationError(.missing(.setting))
        }
        if let rate, let problem = Limits.configureRate(rate) { throw ValidationError(.outOfRange(problem)) }
        if let baud, BaudRate(baud) == nil || baud < 4800 {
            throw ValidationError(
                .notAChoice(
                    option: "--baud", value: String(baud),
                    choices: BaudRate.supported.filter { $0 >= 4800 }.map(String.init)))
        }
        if lineBaud != "auto", Int(lineBaud).flatMap(BaudRate.init) == nil {
            throw ValidationError(
                .notAChoice(
                    option: "--line-baud", value: lineBaud, choices: ["auto"] + BaudRate.supported.map(String.init)))
        }
        if let list = try? parsedSentences(), list.isEmpty { throw ValidationError(.empty(option: "--sentences")) }
        _ = try parsedSentences()
        if let problem = Limits.configureTimeout(timeout) { throw ValidationError(.outOfRange(problem)) }
        if case .failure(let problem) = ReceiverAddress.parse(device) { throw ValidationError(.device(problem)) }
        if case .success(.gpsd) = ReceiverAddress.parse(device) {
            throw ValidationError(.conflict(.configureThroughGpsd))
        }
    }

    private static let knownSentences: Set<String> = [
        "GGA", "GLL", "GSA", "GSV", "RMC", "VTG", "GST", "ZDA", "GNS", "GRS",
    ]

    func parsedSentences() throws -> Set<String>? {
        guard let sentences else { return nil }
        var set = Set<String>()
        for item in sentences.split(separator: ",") {
            let name = item.trimmingPrefix(" ").uppercased()
            guard Self.knownSentences.contains(name) else {
                throw ValidationError(
                    .notAChoice(option: "--sentences", value: String(item), choices: Self.knownSentences.sorted()))
            }
            set.insert(name)
        }
        return set
    }

    func run() throws {
        let choice = try DeviceChoice.resolve(try ReceiverAddress.parse(device).get())
        if let note = choice.note { OutputWriter.standardError.write(line: "gpsfence: \(note)") }
        var job = ConfigureJob(path: choice.name)
        job.currentBaud = Int(lineBaud).flatMap(BaudRate.init)
        job.rate = rate
        job.sentences = try parsedSentences()
        job.baud = baud.flatMap(BaudRate.init)
        job.raisesBaud = raiseBaud
        job.save = save
        job.integrityReports = integrity
        job.dryRun = dryRun
        job.timeout = timeout
        let report = try job.run { line in
            guard !json else { return }
            OutputWriter.standardOutput.write(line: line)
            OutputWriter.standardOutput.flush()
        }
        if json {
            OutputWriter.standardOutput.write(line: report.json)
        } else {
            for line in report.summaryLines { OutputWriter.standardOutput.write(line: line) }
        }
        OutputWriter.standardOutput.flush()
        switch report.failure {
        case nil: return
        case .refused: throw ExitCode(ExitStatus.receiverRefused.rawValue)
        case .silent: throw ExitCode(ExitStatus.receiverSilent.rawValue)
        }
    }
}
