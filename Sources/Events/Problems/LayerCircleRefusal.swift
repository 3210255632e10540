import Fences

/// A layer circle left out of the set the engine runs on, with why.
public struct LayerCircleRefusal: Sendable, Equatable {
    public let layer: LayerCircle.Layer
    public let id: String
    public let cause: FenceLayers.LeftOut

    public init(layer: LayerCircle.Layer, id: String, cause: FenceLayers.LeftOut) {
        self.layer = layer
        self.id = id
        self.cause = cause
    }

    public var text: String {
        switch cause {
        case .idTaken:
            "\(layer.rawValue) circle left out: its id \(FenceID.string(id).json) is already used by another fence"
        case .refused(let problem): "\(layer.rawValue) circle left out: \(problem.text)"
        }
    }

    /// `FenceProblem` has no equality of its own (its shape problems carry positions as tuples):
    /// two refusals of the same circle for a fence problem are the same when that problem reads
    /// the same, which is what telling a new refusal from one already said needs.
    public static func == (left: Self, right: Self) -> Bool {
        guard left.layer == right.layer, left.id == right.id else { return false }
        switch (left.cause, right.cause) {
        case (.idTaken, .idTaken): return true
        case (.refused(let one), .refused(let other)): return one.text == other.text
        case (.idTaken, .refused), (.refused, .idTaken): return false
        }
    }
}
