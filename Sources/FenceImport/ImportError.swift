/// A source that cannot be read as what it claims to be: the file, where in it (a line and
/// column, a byte offset, a blob number) and what is wrong. Bad input, exit status 2.
public struct ImportError: Error, CustomStringConvertible, Sendable {
    public let file: String
    public let place: String?
    public let problem: String

    public init(file: String, place: String? = nil, problem: String) {
        self.file = file
        self.place = place
        self.problem = problem
    }

    public var message: String {
        if let place { return "\(file): \(place): \(problem)" }
        return "\(file): \(problem)"
    }

    public var description: String { message }
}
