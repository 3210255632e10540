/// A source that cannot be read as what it claims to be: the file, where in it (a line and
/// column, a byte offset, a blob) and what is wrong, as values. Bad input, exit status 2.
/// `description` is its one rendering in words.
public struct ImportError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The source as the user named it (the sources, joined, for a problem of the whole import).
    public let file: String
    public let place: ImportPlace?
    public let problem: ImportProblem

    public init(file: String, place: ImportPlace? = nil, problem: ImportProblem) {
        self.file = file
        self.place = place
        self.problem = problem
    }

    public var description: String {
        if let place { return "\(file): \(place.text): \(problem.text)" }
        return "\(file): \(problem.text)"
    }
}

/// Where in a source a problem is.
public enum ImportPlace: Sendable, Equatable {
    /// A line and column (from 1) of an XML document; `entry`: the document's name inside a KMZ.
    case line(Int, column: Int, entry: String? = nil)
    /// A byte offset from the start of the file.
    case byte(Int)
    /// A blob of an OSM PBF file (counted from 0) and the byte it starts at.
    case blob(Int, byte: Int)

    var text: String {
        switch self {
        case .line(let line, let column, let entry): (entry.map { $0 + " " } ?? "") + "line \(line), column \(column)"
        case .byte(let offset): "byte \(offset)"
        case .blob(let number, let offset): "blob \(number) (byte \(offset))"
        }
    }
}
