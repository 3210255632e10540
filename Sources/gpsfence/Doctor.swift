import ArgumentParser
import Delivery
import Fences
import Jobs
import LiveLoop
import Presentation
import Receivers
import Tools

struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Diagnose why a GPS is not working: permissions, groups, ModemManager, port holders, data.",
        discussion: """
            Each finding is printed with its fix. Exit status 1 when something is wrong.

            Example:
              gpsfence doctor --device /dev/ttyUSB0
              gpsfence doctor --device gpsd://localhost:2947   # VERSION, DEVICES, fixes
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    func run() throws {
        var doctor = DoctorJob(address: try receiver.address())
        doctor.rate = try receiver.rate()
        doctor.autobaud = receiver.autobaud
        let findings = doctor.run { finding in
            let label =
                switch finding.level {
                case .ok: "ok      "
                case .warning: "warning "
                case .problem: "PROBLEM "
                }
            OutputWriter.standardOutput.write(line: label + finding.text)
            if let fix = finding.fix { OutputWriter.standardOutput.write(line: "        fix: " + fix) }
            OutputWriter.standardOutput.flush()
        }
        let problems = findings.filter { $0.level == .problem }.count
        if problems > 0 { throw RuntimeFailure.doctorFound(problems: problems) }
    }
}
