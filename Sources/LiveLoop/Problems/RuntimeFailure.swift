import Platform

/// A failure at run time that is not the user's input (exit status 1, docs/running.md), as a
/// value: a device that gives no NMEA or is read by another run, a disk that refuses a write,
/// events a target did not take in time. `description` is its one rendering in words.
public enum RuntimeFailure: Error, CustomStringConvertible, Sendable {
    /// A file that could be opened could not be read to its end (a failing disk, a broken pipe).
    case unreadable(path: String, cause: FileFailure)
    /// A file that could be opened could not be written (a full or failing disk); nil: standard output.
    case unwritable(path: String?, cause: FileFailure)
    /// A step of Platform's atomic replace failed after the file was made.
    case replace(ReplaceError)
    /// `fences add`: the file written back would not hold one more fence, so it was not written.
    case fenceNotAdded(path: String)
    /// Queued items a target did not acknowledge before the drain's deadline (seconds).
    case undelivered(target: String, Undelivered, within: Double)
    /// `gpsfence ack`: the alarm's answer could not be given (`statePath`: the run's state file).
    case alarmAnswer(statePath: String, AlarmAnswerFailure)
    /// A receiver that could not be read.
    case receiver(ReceiverFailure)
    /// The page of `run --web` could not listen (the server's error).
    case webServer(any Error)
    /// `doctor` found this many problems (each said already).
    case doctorFound(problems: Int)

    /// The failure in words: what and where.
    public var description: String {
        switch self {
        case .unreadable(let path, let cause): "cannot read '\(path)': \(cause.text)"
        case .unwritable(let path, let cause):
            "cannot write \(path.map { "'\($0)'" } ?? "standard output"): \(cause.text)"
        case .replace(let error): "cannot \(error.step.rawValue) '\(error.path)': \(error.reason)"
        case .fenceNotAdded(let path): "adding the fence to '\(path)' did not give one more fence; nothing written"
        case .undelivered(let target, let what, let within): what.text(target, within)
        case .alarmAnswer(let statePath, let failure): failure.text(statePath)
        case .receiver(let failure): failure.text
        case .webServer(let error): "\(error)"
        case .doctorFound(let problems): "doctor found \(problems) problem\(problems == 1 ? "" : "s")"
        }
    }

    /// The same words as `description`.
    public var message: String { description }
}

/// What a target left unacknowledged when a command that sends ends.
public enum Undelivered: Sendable, Equatable {
    /// Events of a replay without a state file to keep them queued.
    case events(Int)
    /// Track points of `sync` (`lastError`: the last error the server gave, if any); they stay queued.
    case trackPoints(Int, lastError: String?)

    func text(_ target: String, _ within: Double) -> String {
        switch self {
        case .events(let count):
            "\(target): \(count) events were not delivered within \(within) s (give --state FILE to keep them queued)"
        case .trackPoints(let count, let lastError):
            "\(target): \(count) track points were not acknowledged within \(within) s "
                + "(last error: \(lastError ?? "none")); they stay queued"
        }
    }
}

/// Why `gpsfence ack` could not answer the alarm.
public enum AlarmAnswerFailure: Sendable, Equatable {
    /// No alarm sounds in the state file.
    case noAlarm
    /// The process holding the state file (`pid`) is not a run that answers requests.
    case holderCannotBeTold(pid: Int)
    /// The run holding the state file did not take the answer within `wait` seconds.
    case notTaken(pid: Int, wait: Double)

    func text(_ statePath: String) -> String {
        switch self {
        case .noAlarm: "no alarm is sounding (state file \(statePath))"
        case .holderCannotBeTold(let pid):
            "the process holding \(statePath) (pid \(pid)) is not a run that can be told; the answer waits in the "
                + "state file for the next run"
        case .notTaken(let pid, let wait):
            "the run holding \(statePath) (pid \(pid)) did not take the answer within \(Int(wait)) s; it waits in the "
                + "state file"
        }
    }
}

/// Why a receiver could not be read.
public enum ReceiverFailure: Sendable {
    /// Another gpsfence (`pid`) reads the port.
    case portInUse(path: String, pid: Int)
    /// No valid NMEA came at any rate tried (each attempt said: its rate, bytes and sentences).
    case noNMEAAtAnyRate(path: String, tried: [String])
    /// gpsd could not be reached or asked to watch (`endpoint`: its address).
    case gpsdUnreachable(endpoint: String, cause: any Error)
    /// Reading gpsd failed after it answered (`captureComplete`: a capture written so far is whole).
    case gpsdReadFailed(endpoint: String, cause: any Error, captureComplete: Bool)
    /// The receiver stopped giving data while recording; the capture is whole up to there.
    case hungUp(RecordingEnd)
    /// Stopped while the receiver was still being opened (at `step`); the capture (`capture`: how
    /// it is named) holds its header only.
    case stoppedWhileOpening(OpeningStep, capture: String)

    var text: String {
        switch self {
        case .portInUse(let path, let pid):
            "\(path) is being read by another gpsfence (pid \(pid)); one receiver feeds one run: stop that one first"
        case .noNMEAAtAnyRate(let path, let tried):
            "\(path): no valid NMEA at any rate; tried " + tried.joined(separator: ", ")
        case .gpsdUnreachable(let endpoint, let cause):
            "cannot record from gpsd at \(endpoint): \(cause); is gpsd running? (systemctl status gpsd)"
        case .gpsdReadFailed(let endpoint, let cause, let captureComplete):
            "reading gpsd at \(endpoint) failed: \(cause)"
                + (captureComplete ? "; the capture is complete up to there" : "")
        case .hungUp(let end): end.text + "; the capture is complete up to there"
        case .stoppedWhileOpening(let step, let capture): step.text + "; \(capture) holds the header only"
        }
    }
}

/// A stop (SIGINT/SIGTERM) that came while `record` opened the receiver, by what it was doing
/// (thrown by the feed): nothing recorded, the capture's header stays.
public enum OpeningStep: Error, Sendable, Equatable {
    /// Autobaud was looking for the port's rate.
    case findingBaudRate(path: String)
    /// gpsd had not sent a sentence yet.
    case waitingForGpsd

    var text: String {
        switch self {
        case .findingBaudRate(let path): "stopped while looking for the baud rate of \(path); nothing recorded"
        case .waitingForGpsd: "stopped while waiting for gpsd; nothing recorded"
        }
    }
}

/// How a recording's receiver went away.
public enum RecordingEnd: Sendable, Equatable {
    /// gpsd closed its connection.
    case gpsdClosed
    /// The serial port hung up (unplugged?).
    case portHungUp(path: String)

    var text: String {
        switch self {
        case .gpsdClosed: "gpsd closed the connection"
        case .portHungUp(let path): "\(path) hung up (unplugged?)"
        }
    }
}
