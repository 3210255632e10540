/// A position in degrees.
struct Position: Equatable {
    var lon: Double
    var lat: Double
}

/// A fence on its way to the output file.
struct ImportedFence {
    enum Geometry {
        case point(Position)
        case line([Position])
        case multiLine([[Position]])
        /// The outer ring, then the holes; each closed.
        case polygon([[Position]])
        case multiPolygon([[[Position]]])

        var kind: String {
            switch self {
            case .point: "circles"
            case .line, .multiLine: "corridors"
            case .polygon, .multiPolygon: "polygons"
            }
        }

        func anyPosition(_ test: (Position) -> Bool) -> Bool {
            switch self {
            case .point(let position): test(position)
            case .line(let positions): positions.contains(where: test)
            case .multiLine(let lines): lines.contains { $0.contains(where: test) }
            case .polygon(let rings): rings.contains { $0.contains(where: test) }
            case .multiPolygon(let polygons): polygons.contains { $0.contains { $0.contains(where: test) } }
            }
        }
    }

    enum Value {
        case text(String)
        case number(Double, decimals: Int)
        /// `[[vertex, node], ...]`: a road's `shared_nodes`.
        case vertexNodes([(vertex: Int, node: Int64)])
    }

    var id: String
    var geometry: Geometry
    /// In the order written; `radius` among them for points and lines.
    var properties: [(key: String, value: Value)] = []
}
