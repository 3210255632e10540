import ArgumentParser
import Runtime
import Serial

/// Runs a job on a device; a device that cannot be used is a runtime failure: a message naming
/// the device and what to do, and exit status 1 (SPEC §9).
func runReportingSerialErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try runReportingInputErrors(body)
    } catch let error as SerialError {
        OutputWriter.standardOutput.flush()
        OutputWriter.standardError.write(line: "gpsfence: \(error.description)")
        throw ExitCode(1)
    }
}
