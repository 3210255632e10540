import Platform

/// A hook program that cannot be used as given (bad input, exit status 2): the program as the
/// user named it and why it cannot be run. `description` is its one rendering in words.
public struct HookError: Error, CustomStringConvertible, Sendable {
    /// The program as given to `--exec` (or `--on-escalate`).
    public let program: String
    /// Why it cannot be run: not an executable file, or no such program in `PATH`.
    public let cause: ProgramLookup.Problem

    public init(program: String, cause: ProgramLookup.Problem) {
        self.program = program
        self.cause = cause
    }

    public var description: String {
        switch cause {
        case .notExecutable: "--exec \(program): not an executable file"
        case .notInPath: "--exec \(program): no such program in PATH"
        }
    }
}
