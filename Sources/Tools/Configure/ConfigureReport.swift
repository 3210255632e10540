import JSONOutput
import Platform
import Receivers

/// What `configure` did, step by step, and what it saw afterwards (docs/hardware.md).
public struct ConfigureReport: Sendable {
    /// The receiver as it named itself ("u-blox NEO-M8N, SPG 3.01, protocol 18.00").
    public var receiver: String?
    /// The configuration interface used.
    public var interface: ReceiverInterface?
    public var steps: [Step] = []
    public var notes: [String] = []
    public var verification: Verification?
    public var failure: Failure?

    public struct Step: Sendable {
        /// What was asked ("UBX-CFG-RATE 200 ms").
        public var command: String
        /// Nil: not sent (--dry-run), or sent with no acknowledgement to wait for ($PMTK251).
        public var outcome: ReceiverConversation.Outcome?
        public var dryRun = false

        /// The step for a terminal.
        public var line: String {
            let text: String
            switch outcome {
            case nil: text = dryRun ? "would send (dry run)" : "sent (no acknowledgement in this protocol)"
            case .accepted: text = "accepted"
            case .refused(let detail): text = "REFUSED (\(detail))"
            case .unanswered: text = "NO ANSWER"
            }
            return "  \(command): \(text)"
        }
    }

    /// What the receiver sent once configured.
    public struct Verification: Sendable, Equatable {
        public var baud: BaudRate?
        public var sentences: [String]
        /// Fixes a second, from the spacing of the receiver's own fix times; nil when fewer than
        /// two distinct times arrived.
        public var fixRate: Double?
        /// The receiver's own jamming and spoofing reports heard (`UBX-NAV-STATUS`, ...).
        public var reports: [String] = []
    }

    /// Why the outcome is not a success: the exit status tells them apart (docs/running.md).
    public enum Failure: Sendable, Equatable {
        /// Some command was refused, or a setting did not take effect.
        case refused(String)
        /// The receiver did not answer (or does not speak UBX or PMTK).
        case silent(String)

        public var message: String {
            switch self {
            case .refused(let message), .silent(let message): message
            }
        }
    }

    /// Keeps the worse failure: silence outranks a refusal.
    mutating func fail(_ failure: Failure) {
        switch (self.failure, failure) {
        case (nil, _), (.refused, .silent): self.failure = failure
        default: break
        }
    }
}

/// How a receiver is configured.
public enum ReceiverInterface: String, Sendable {
    /// u-blox generation 8 and older: UBX-CFG-RATE, -MSG, -PRT, -CFG.
    case ubloxLegacy = "ubx-cfg"
    /// u-blox generation 9 and 10: UBX-CFG-VALSET.
    case ubloxValueSet = "ubx-valset"
    /// MediaTek: PMTK commands.
    case mediaTek = "pmtk"
}

extension ConfigureReport {
    /// The end of the report for a terminal, after the steps (printed as they happen).
    public var summaryLines: [String] {
        var lines: [String] = []
        for note in notes { lines.append("note: \(note)") }
        if let verification {
            var text = "now sending: \(verification.sentences.joined(separator: ","))"
            if let rate = verification.fixRate { text += " at \(formatted(rate)) Hz" }
            if let baud = verification.baud { text += ", \(baud) baud" }
            if !verification.reports.isEmpty { text += "; reports \(verification.reports.joined(separator: ", "))" }
            lines.append(text)
        }
        if let failure { lines.append("error: \(failure.message)") }
        return lines
    }

    /// The report as one JSON object.
    public var json: String {
        var object = JSONLine()
        object.add("receiver", receiver)
        object.add("interface", interface?.rawValue)
        let stepObjects = steps.map { step in
            var item = JSONLine()
            item.add("command", step.command)
            item.add("outcome", step.outcomeName)
            return item.string
        }
        object.addArray("steps", json: stepObjects)
        object.addArray("notes", json: notes.map(JSONLine.quoted))
        if let verification {
            var item = JSONLine()
            item.addArray("sentences", strings: verification.sentences)
            item.add("fix_rate_hz", verification.fixRate.map { ($0 * 10).rounded() / 10 }, decimals: 1)
            item.add("baud", verification.baud?.bitsPerSecond)
            item.addArray("reports", strings: verification.reports)
            object.addRaw("verified", json: item.string)
        } else {
            object.addRaw("verified", json: "null")
        }
        object.add("error", failure?.message)
        return object.string
    }
}

extension ConfigureReport.Step {
    /// The outcome as `--json` names it.
    var outcomeName: String {
        switch outcome {
        case nil: dryRun ? "dry-run" : "sent"
        case .accepted: "accepted"
        case .refused: "refused"
        case .unanswered: "unanswered"
        }
    }
}

private func formatted(_ rate: Double) -> String {
    let tenths = (rate * 10).rounded() / 10
    return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
}
