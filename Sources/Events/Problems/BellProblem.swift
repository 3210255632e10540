import Platform

/// `--bell` has no terminal to ring (a service): it carries on without it.
public struct BellProblem: Sendable, Equatable {
    /// The terminal asked for (`/dev/tty`).
    public let device: String
    public let error: FileCallError

    public init(device: String, error: FileCallError) {
        self.device = device
        self.error = error
    }

    public var text: String { "no terminal to ring (\(device): \(error.reason)); carrying on without it" }
}
