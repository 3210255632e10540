import Presentation

/// Why a fence file was refused (docs/fences.md): the whole file is refused, and the message names the
/// file, the feature (index and id, when known) and the problem.
public struct FenceLoadError: Error, CustomStringConvertible, Sendable {
    public let file: String
    /// Feature index in the file (0-based), when the problem belongs to one feature.
    public let featureIndex: Int?
    /// The feature's id as JSON text, when known.
    public let featureID: String?
    public let problem: FenceProblem

    public init(file: String, featureIndex: Int? = nil, featureID: String? = nil, problem: FenceProblem) {
        self.file = file
        self.featureIndex = featureIndex
        self.featureID = featureID
        self.problem = problem
    }

    public var message: String {
        var place = file
        if let featureIndex {
            place += ": feature \(featureIndex)"
            if let featureID { place += " (id \(featureID))" }
        }
        // Problems quote the file ('lat '...' is not a number'): no terminal control may come
        // through to the user's terminal that way either.
        return HumanText.printable(place + ": " + problem.text)
    }

    public var description: String { message }
}
