import Delivery
import Foundation
import Platform
import SystemPackage

/// Enter on the terminal that runs `run` answers the alarm (docs/running.md, "Alarms"). A thread
/// waits in `poll` on standard input and on a `WakeSignal` for the stop, with no timer; each line
/// typed (the terminal hands over whole lines) is one answer. Only when standard input is a
/// terminal: a service's, or a pipe's, is not a person.
final class TerminalAnswers: @unchecked Sendable {
    private let answers: AlarmAnswers
    private let stopSignal: WakeSignal
    private let done = DispatchSemaphore(value: 0)

    /// Nil when standard input is not a terminal (or the wake pipe cannot be made).
    init?(answers: AlarmAnswers) {
        guard StandardStream.input.isTerminal, let stopSignal = try? WakeSignal() else { return nil }
        self.answers = answers
        self.stopSignal = stopSignal
    }

    func start() {
        let thread = Thread { [self] in
            runThread(named: "gf-terminal") {
                listen()
                done.signal()
            }
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    func stop() {
        stopSignal.signal()
        _ = done.wait(timeout: .now() + 2)
    }

    private func listen() {
        let input = FileDescriptor(rawValue: StandardStream.input.rawValue)
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            guard let ready = try? poll([(input, .readable), (stopSignal.descriptor, .readable)], timeout: nil),
                ready[1].isEmpty
            else { return }
            guard !ready[0].isEmpty else { continue }
            // A terminal gone (hung up, closed) ends the listening; the hangup itself stops the run.
            if !ready[0].intersection([.hangUp, .error, .invalid]).isEmpty, !ready[0].contains(.readable) { return }
            let read = buffer.withUnsafeMutableBytes { try? readNow(input, into: $0) }
            guard case .data(let count) = read else { return }
            for byte in buffer[..<count] where byte == 0x0A || byte == 0x0D { answers.post(.terminal) }
        }
    }
}
