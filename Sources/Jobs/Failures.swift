import Delivery
import FenceImport
import Fences
import LiveLoop
import Platform
import Receivers
import Store
import Views
import Web

/// The exit statuses of docs/running.md.
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case runtimeFailure = 1
    case badInput = 2
    /// `configure`: the receiver refused a command, or a setting did not take effect.
    case receiverRefused = 3
    /// `configure`: the receiver did not answer (or speaks neither UBX nor PMTK).
    case receiverSilent = 4
    /// No command given: sysexits.h's EX_USAGE, as BSD tools exit when the usage is all they can
    /// print, so a script that forgot the command does not take the usage for success.
    case usage = 64
    /// Stopped by Ctrl-C (SIGINT) or SIGTERM before what it waited for was done: 128 plus the
    /// signal's number, as the shell reports a command the signal ended.
    case interrupted = 130
    case terminated = 143
}

/// A replay cut short by a stop signal while its deliveries were awaited, with what was left
/// undone (said on standard error): the events each target did not take, and the state file that
/// keeps them (nil: a temporary one, lost with them).
public struct StoppedBySignal: Error, Sendable, CustomStringConvertible {
    public var signal: Int32
    public var undelivered: [(target: String, events: Int)]
    public var statePath: String?

    public init(signal: Int32, undelivered: [(target: String, events: Int)], statePath: String?) {
        self.signal = signal
        self.undelivered = undelivered
        self.statePath = statePath
    }

    var status: ExitStatus { signal == StopSignals.interrupt ? .interrupted : .terminated }

    public var description: String {
        let fate =
            statePath.map { "they are kept in \($0); the next run or replay with this --state delivers them" }
            ?? "they are lost with the temporary state file (give --state FILE to keep them)"
        return "stopped while waiting for deliveries: "
            + undelivered.map { "\($0.target): \($0.events) events not delivered" }.joined(separator: "; ")
            + "; " + fate
    }
}

/// The one place where an error thrown by any module becomes an exit status and a message:
/// what the user gave (files, options, URLs, programs) is bad input; what the world did (devices,
/// disks, the network) is a runtime failure. Nil for errors this does not know (the argument
/// parser's own).
public func classify(_ error: any Error) -> (status: ExitStatus, message: String)? {
    switch error {
    case let error as InputError: (.badInput, error.message)
    case let error as StateFileMissing: (.badInput, error.message)
    case let error as FenceLoadError: (.badInput, error.message)
    case let error as PointsFileError: (.badInput, error.description)
    case let error as HookError: (.badInput, error.description)
    case let error as ImportError: (.badInput, error.description)
    case let error as WriteFailure: (.runtimeFailure, error.description)
    case let error as ReceiverAddressError: (.badInput, error.description)
    case let error as WebhookError: (.badInput, error.description)
    case let error as TrackSyncError: (.badInput, error.description)
    case let error as MQTTConfigurationError: (.badInput, error.message)
    case let error as HTTPHeaderError: (.badInput, error.description)
    case let error as WebSettingsError: (.badInput, error.description)
    // A state file that cannot be opened is the user's path; writes that fail later are not.
    case let error as StoreError:
        switch error.stage {
        case .opening: (.badInput, error.description)
        case .use: (.runtimeFailure, error.description)
        }
    case let error as RuntimeFailure: (.runtimeFailure, error.message)
    case let error as StoppedBySignal: (error.status, error.description)
    case let error as StateInUse: (.runtimeFailure, error.description)
    case let error as SerialError: (.runtimeFailure, error.description)
    case let error as DiscoveryProblem: (.runtimeFailure, error.description)
    default: nil
    }
}
