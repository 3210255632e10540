import ArgumentParser
import FenceRuntime
import Serial

/// Runs a job on a device. Bad input stays exit status 2; a device that cannot be used (missing,
/// no permission, no NMEA, no USB bus for `auto`) is a runtime failure: a message naming the device
/// and what to do, and exit status 1 (SPEC §9).
func runReportingSerialErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try runReportingInputErrors(body)
    } catch let error as SerialError {
        fail(error.description)
    } catch let error as DiscoveryProblem {
        fail(error.description)
    } catch let error as RuntimeFailure {
        fail(error.message)
    }
}

private func fail(_ message: String) -> Never {
    OutputWriter.standardOutput.flush()
    OutputWriter.standardError.write(line: "gpsfence: \(message)")
    GPSFence.exit(withError: ExitCode(1))
}
