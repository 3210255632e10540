import ArgumentParser
import FenceRuntime

/// Runs a job; bad input becomes a message on standard error and exit status 2 (SPEC §9).
func runReportingInputErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as InputError {
        OutputWriter.standardOutput.flush()
        OutputWriter.standardError.write(line: "gpsfence: \(error.message)")
        throw ExitCode(2)
    }
}
