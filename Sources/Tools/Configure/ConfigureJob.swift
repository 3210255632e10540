import LiveLoop
import NMEA
import Platform
import Receivers

/// `gpsfence configure`: finds out which receiver is on the port, sends it the rate, sentences
/// and baud asked for, waits for each acknowledgement, follows a baud change, and checks what the
/// receiver sends afterwards (docs/hardware.md).
public struct ConfigureJob: Sendable {
    public var path: String
    /// The line speed the receiver talks at now; nil: found by autobaud.
    public var currentBaud: BaudRate?
    /// Fixes a second.
    public var rate: Double?
    public var sentences: Set<String>?
    public var baud: BaudRate?
    /// Raise the baud to the slowest standard rate that carries the sentences at the rate,
    /// instead of refusing.
    public var raisesBaud = false
    public var save = false
    /// Turn on the receiver's own jamming and spoofing reports (u-blox UBX messages).
    public var integrityReports = false
    public var dryRun = false
    /// Seconds to wait for each acknowledgement (then one retry).
    public var timeout = 1.0
    /// Seconds to listen to the receiver's output after configuring it.
    public var verifySeconds = 3.0
    /// Where the device's last good rate is kept: tried right after the port's current speed when
    /// the line's rate is hunted, and set to the new baud once sentences arrive at it, so that the
    /// next `run` starts there.
    public var memory = StateLocation.baudMemory

    public init(path: String) { self.path = path }

    /// Seconds to let a receiver act on a command that has no acknowledgement before the host
    /// changes its line speed.
    static let unacknowledgedSettle = 0.3
    /// Seconds to wait for the first sentence at a new baud.
    static let sentencesAfterBaudChange = 3.0

    /// The standard rates `--raise-baud` picks from.
    public static let standardRates: [BaudRate] = [9600, 19200, 38400, 57600, 115200, 230400].map { BaudRate($0)! }

    /// Runs the job; `say` receives progress lines. Bad flags for this receiver (a rate the line
    /// cannot carry) throw `InputError` before anything is sent.
    public func run(say: (String) -> Void = { _ in }) throws -> ConfigureReport {
        var report = ConfigureReport()
        let opened = try ReceiverPort.open(path, rate: currentBaud, autobaud: Autobaud(), memory: memory)
        guard case .opened(let receiverPort) = opened else {
            report.fail(.silent("\(path) gives no NMEA at any standard rate; nothing was sent"))
            return report
        }
        defer { receiverPort.close() }
        let conversation = ReceiverConversation(port: receiverPort.port)
        var heard = SentenceTypes()
        heard.add(receiverPort.leadingBytes)
        say("identifying the receiver on \(path)" + (receiverPort.rate.map { " at \($0) baud" } ?? ""))
        guard let identity = try conversation.identify(seconds: 2 * timeout + 1, sentence: { heard.add(sentence: $0) })
        else {
            report.fail(
                .silent(
                    "\(path) did not answer UBX-MON-VER or $PMTK605: not a receiver gpsfence can configure "
                        + "(u-blox or MediaTek); nothing was changed"))
            return report
        }
        report.receiver = identity.description
        let interface = identity.interface
        report.interface = interface
        say("receiver: \(identity.description) (\(interface.rawValue))")

        var plan = Plan(
            rate: rate, sentences: sentences.map { $0.sorted() }, baud: baud, save: save,
            integrity: integrityReports, currentSentences: heard.types.sorted())
        try checkBudget(&plan, line: receiverPort.rate, interface: interface, report: &report)
        let commands = plan.commands(for: interface)
        if interface == .mediaTek, save {
            report.notes.append(
                "MediaTek parts keep these settings in battery-backed RAM only; --save has nothing to send")
        }
        if interface == .mediaTek, integrityReports {
            report.notes.append("MediaTek parts send no jamming or spoofing reports; --integrity has nothing to send")
        }
        if dryRun {
            report.steps = commands.map { ConfigureReport.Step(command: $0.label, outcome: nil, dryRun: true) }
            for step in report.steps { say(step.line) }
            return report
        }
        var lineRate = receiverPort.rate
        for command in commands {
            let before = report.steps.count
            let outcome = try perform(command, on: conversation, interface: interface, report: &report, say: say)
            // Key-by-key retries of a refused value set come after it in the report.
            report.steps.insert(ConfigureReport.Step(command: command.label, outcome: outcome), at: before)
            if case .baud(let newRate) = command.effect, lineRate != nil, outcome != .unanswered {
                // The answer came at the old rate (for $PMTK251 there is none: leave the receiver
                // time to read the command before our side changes speed); the receiver talks at
                // the new rate from now on. Sentences arriving at it prove the change, and only
                // then does the next command go out.
                sleepSeconds(outcome == nil ? Self.unacknowledgedSettle : 0.1)
                try receiverPort.port.setRate(newRate)
                lineRate = newRate
                say("  host port now at \(newRate) baud")
                let heard = try conversation.listen(seconds: Self.sentencesAfterBaudChange) { thing in
                    if case .sentence = thing { return true }
                    return false
                }
                guard heard else {
                    report.fail(
                        .silent(
                            "no sentences at \(newRate) baud within \(Self.sentencesAfterBaudChange) s after the change"
                        ))
                    return report
                }
            }
        }
        report.verification = try verify(conversation, baud: lineRate)
        if let lineRate, lineRate != receiverPort.rate, report.verification != nil {
            memory?.remember(lineRate, for: path)
        }
        if let verification = report.verification { check(verification, against: plan, report: &report) }
        return report
    }

    /// One command and its outcome; nil when the protocol sends no acknowledgement for it.
    private func perform(
        _ command: ReceiverCommand, on conversation: ReceiverConversation, interface: ReceiverInterface,
        report: inout ConfigureReport, say: (String) -> Void
    ) throws(SerialError) -> ReceiverConversation.Outcome? {
        switch command.message {
        case .ubx(let frame):
            let outcome = try conversation.command(frame, timeout: timeout)
            if case .refused = outcome, let set = UBXValueSet(frame), set.values.count > 1 {
                say(ConfigureReport.Step(command: command.label, outcome: outcome).line)
                // A value set with one key the receiver does not know is refused whole: find it.
                report.notes.append("\(command.label) was refused whole; retrying key by key")
                for value in set.values {
                    let single = UBXValueSet(layers: set.layers, values: [value])
                    let label =
                        "UBX-CFG-VALSET key 0x\(String(value.key.id, radix: 16, uppercase: true))=\(value.value)"
                    let result = try conversation.command(single.frame, timeout: timeout)
                    report.steps.append(ConfigureReport.Step(command: label, outcome: result))
                    say(report.steps[report.steps.count - 1].line)
                    record(result, label, &report)
                }
                return outcome
            }
            say(ConfigureReport.Step(command: command.label, outcome: outcome).line)
            if command.isOptional, case .refused = outcome {
                report.notes.append("this firmware refused \(command.label): it lacks that feature")
                return outcome
            }
            record(outcome, command.label, &report)
            return outcome
        case .pmtk(let pmtk):
            guard pmtk.packetType != 251 else {
                try conversation.send(Array(pmtk.sentence.utf8))
                say(ConfigureReport.Step(command: command.label, outcome: nil).line)
                return nil
            }
            let outcome = try conversation.command(pmtk, timeout: timeout)
            say(ConfigureReport.Step(command: command.label, outcome: outcome).line)
            record(outcome, command.label, &report)
            return outcome
        }
    }

    private func record(_ outcome: ReceiverConversation.Outcome, _ label: String, _ report: inout ConfigureReport) {
        switch outcome {
        case .accepted: break
        case .refused(let detail): report.fail(.refused("the receiver refused \(label) (\(detail))"))
        case .unanswered: report.fail(.silent("no acknowledgement of \(label) within \(timeout) s, after one retry"))
        }
    }

    /// Refuses a rate the line cannot carry, or raises the baud when allowed.
    private func checkBudget(
        _ plan: inout Plan, line: BaudRate?, interface: ReceiverInterface, report: inout ConfigureReport
    ) throws {
        guard let rate = plan.rate, let lineRate = plan.baud ?? line else { return }
        let sentences = Set(plan.sentences ?? plan.currentSentences)
        let budget = BaudBudget(sentences: sentences, rate: rate, baud: lineRate)
        guard !budget.fits else { return }
        let shortfall = BaudShortfall(sentences: sentences, rate: rate, baud: lineRate)
        if raisesBaud, plan.baud == nil,
            let faster = BaudBudget.slowestFitting(sentences: sentences, rate: rate, candidates: Self.standardRates)
        {
            plan.baud = faster
            report.notes.append("\(shortfall.text); raising the baud to \(faster)")
            return
        }
        throw InputError.option(.baudTooLow(shortfall))
    }

    /// Listens to what the receiver sends now.
    private func verify(_ conversation: ReceiverConversation, baud: BaudRate?) throws(SerialError)
        -> ConfigureReport.Verification?
    {
        var heard = SentenceTypes(fromNextEpoch: true)
        var reports = Set<String>()
        _ = try conversation.listen(seconds: verifySeconds) { thing in
            switch thing {
            case .sentence(let bytes): heard.add(sentence: bytes)
            case .ubx(let frame):
                if let report = UBXIntegrityMessage.named(messageClass: frame.messageClass, id: frame.id) {
                    reports.insert(report.name)
                }
            case .pmtk: break
            }
            return false
        }
        guard !heard.types.isEmpty else { return nil }
        return ConfigureReport.Verification(
            baud: baud, sentences: heard.types.sorted(), fixRate: heard.fixRate, reports: reports.sorted())
    }

    private func check(_ verification: ConfigureReport.Verification, against plan: Plan, report: inout ConfigureReport)
    {
        if let wanted = plan.rate {
            guard let measured = verification.fixRate, abs(measured - wanted) <= wanted * 0.2 else {
                report.fail(
                    .refused(
                        "asked for \(wanted) Hz, but the receiver's fixes come at "
                            + (verification.fixRate.map { "\($0) Hz" } ?? "an unknown rate")))
                return
            }
        }
        if let wanted = plan.sentences {
            let missing = Set(wanted).subtracting(verification.sentences)
                .intersection(Self.sentencesSimulatorsSend)
            let extra = Set(verification.sentences).subtracting(wanted)
            if !extra.isEmpty {
                report.fail(.refused("the receiver still sends \(extra.sorted().joined(separator: ","))"))
            } else if !missing.isEmpty {
                report.notes.append("not heard afterwards: \(missing.sorted().joined(separator: ","))")
            }
        }
        if plan.integrity, verification.reports.isEmpty {
            report.notes.append(
                "no jamming or spoofing report (UBX-NAV-STATUS, MON-HW, MON-RF, SEC-SIG) heard afterwards")
        }
    }

    /// Sentence types every receiver sends once enabled; others (ZDA, GST) may need a fix or a
    /// firmware option, so their absence is only noted.
    static let sentencesSimulatorsSend: Set<String> = ["GGA", "RMC"]
}

extension ConfigureJob {
    /// What to do, in receiver-independent terms.
    struct Plan {
        var rate: Double?
        var sentences: [String]?
        var baud: BaudRate?
        var save: Bool
        /// Turn on the receiver's jamming and spoofing reports.
        var integrity = false
        /// What the receiver was heard sending before (for the baud budget).
        var currentSentences: [String]
    }
}
