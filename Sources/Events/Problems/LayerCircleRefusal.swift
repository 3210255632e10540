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
}
