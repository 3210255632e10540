import Platform
import Presentation

/// A program an alert runs (`--say`'s voice, `notify-send`) that did not do its work.
public struct ProgramRunFailure: Sendable, Equatable {
    /// What went wrong with the run.
    public enum Cause: Sendable, Equatable {
        /// It could not be started: the spawn's error.
        case couldNotStart(SpawnError)
        /// It exited with a status other than 0, or a signal killed it.
        case ended(ExitStatus)
        /// It ran longer than its time limit (seconds) and was killed.
        case timedOut(limit: Double)
    }

    /// The program's name as messages show it (`espeak-ng`, `notify-send`).
    public let program: String
    public let cause: Cause

    public init(program: String, cause: Cause) {
        self.program = program
        self.cause = cause
    }

    public var text: String {
        switch cause {
        case .couldNotStart(let error): "\(program) could not start: \(error)"
        case .ended(let status): "\(program) \(status.problem ?? "exited with status 0")"
        case .timedOut(let limit): "\(program) took longer than \(HumanText.duration(limit)) and was killed"
        }
    }
}
