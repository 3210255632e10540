/// The state file a view was asked to show is not there. Bad input (exit status 2, through
/// `classify`): the views only read, so they never create the file to show it empty.
public struct StateFileMissing: Error, CustomStringConvertible, Sendable {
    public let path: String
    /// What to tell the user, naming the file and what writes it.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { message }
}
