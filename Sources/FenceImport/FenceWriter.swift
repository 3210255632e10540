import JSONOutput
import Platform

/// Writes the imported fences as a GeoJSON FeatureCollection, one feature a line, to a file
/// descriptor as they come (a country's fences never sit in memory), applying `--bbox` and
/// counting what is kept (through Platform's `writeAll`).
final class FenceWriter {
    private let descriptor: Int32
    private let outputName: String
    private let boundingBox: BoundingBox?
    /// `--bbox` read the other way (`BoundingBox.inOsmiumOrder`), to say when that order was meant.
    private let otherOrderBox: BoundingBox?
    /// Fences handed to `add`, kept or not.
    private(set) var offered = 0
    private let feature = JSONBuffer(capacity: 1 << 16)
    /// The FeatureCollection around the features.
    private let collection = JSONBuffer(capacity: 64)
    private var pending: [UInt8] = []
    private var written = 0
    /// Ids already written, when several sources could repeat one (two overlapping extracts).
    private var seen: Set<String>?
    var summary = ImportSummary()

    init(descriptor: Int32, outputName: String, boundingBox: BoundingBox?, checkDuplicates: Bool) throws {
        self.descriptor = descriptor
        self.outputName = outputName
        self.boundingBox = boundingBox
        otherOrderBox = boundingBox?.inOsmiumOrder
        seen = checkDuplicates ? [] : nil
        pending.reserveCapacity(1 << 20)
        // The collection's head; `finish` closes its array and object in the same buffer.
        collection.beginObject()
        collection.key("type")
        collection.value("FeatureCollection")
        collection.key("features")
        collection.beginArray()
        collection.withUnsafeBytes { pending.append(contentsOf: $0) }
    }

    /// Adds one fence (or counts why not); `decimals` is the coordinates' precision.
    func add(_ fence: ImportedFence, decimals: Int) throws {
        offered += 1
        if let boundingBox, !fence.geometry.anyPosition(boundingBox.contains) {
            if let otherOrderBox, fence.geometry.anyPosition(otherOrderBox.contains) {
                summary.noteInsideOsmiumOrderBox()
            }
            summary.skip("outside --bbox")
            return
        }
        if seen != nil {
            guard seen!.insert(fence.id).inserted else {
                summary.skip("already imported from an earlier source (same id)")
                return
            }
        }
        feature.removeAll()
        feature.beginObject()
        feature.key("type")
        feature.value("Feature")
        feature.key("id")
        feature.value(fence.id)
        feature.key("geometry")
        writeGeometry(fence.geometry, decimals: decimals)
        feature.key("properties")
        feature.beginObject()
        for (key, value) in fence.properties {
            feature.key(key)
            switch value {
            case .text(let text): feature.value(text)
            case .number(let number, let decimals): feature.value(number, decimals: decimals)
            case .vertexNodes(let pairs):
                feature.beginArray()
                for pair in pairs {
                    feature.beginArray()
                    feature.value(pair.vertex)
                    feature.value(pair.node)
                    feature.endArray()
                }
                feature.endArray()
            }
        }
        feature.endObject()
        feature.endObject()
        pending.append(contentsOf: written == 0 ? [0x0A] : [0x2C, 0x0A])
        feature.withUnsafeBytes { pending.append(contentsOf: $0) }
        written += 1
        summary.keep(fence.geometry.kind)
        if pending.count >= 1 << 20 { try flush() }
    }

    /// Closes the collection and writes what is left.
    func finish() throws {
        pending.append(0x0A)
        let head = collection.count
        collection.endArray()
        collection.endObject()
        collection.endLine()
        collection.withUnsafeBytes { pending.append(contentsOf: $0[head...]) }
        try flush()
    }

    private func writeGeometry(_ geometry: ImportedFence.Geometry, decimals: Int) {
        feature.beginObject()
        feature.key("type")
        switch geometry {
        case .point(let position):
            feature.value("Point")
            feature.key("coordinates")
            write(position, decimals: decimals)
        case .line(let positions):
            feature.value("LineString")
            feature.key("coordinates")
            write(positions, decimals: decimals)
        case .multiLine(let lines):
            feature.value("MultiLineString")
            feature.key("coordinates")
            write(lines, decimals: decimals)
        case .polygon(let rings):
            feature.value("Polygon")
            feature.key("coordinates")
            write(rings, decimals: decimals)
        case .multiPolygon(let polygons):
            feature.value("MultiPolygon")
            feature.key("coordinates")
            feature.beginArray()
            for rings in polygons { write(rings, decimals: decimals) }
            feature.endArray()
        }
        feature.endObject()
    }

    private func write(_ rings: [[Position]], decimals: Int) {
        feature.beginArray()
        for ring in rings { write(ring, decimals: decimals) }
        feature.endArray()
    }

    private func write(_ positions: [Position], decimals: Int) {
        feature.beginArray()
        for position in positions { write(position, decimals: decimals) }
        feature.endArray()
    }

    private func write(_ position: Position, decimals: Int) {
        feature.beginArray()
        feature.value(position.lon, decimals: decimals)
        feature.value(position.lat, decimals: decimals)
        feature.endArray()
    }

    private func flush() throws {
        if let errno = pending.withUnsafeBytes({ writeAll(descriptor, $0) }) {
            throw WriteFailure(path: outputName, cause: FileCallError(call: "write", path: outputName, errno: errno))
        }
        pending.removeAll(keepingCapacity: true)
    }
}

/// The output could not be written (a full disk): a runtime failure, not bad input.
/// `description` is its one rendering in words.
public struct WriteFailure: Error, CustomStringConvertible, Sendable {
    /// The file being written, as the user named it.
    public let path: String
    /// The failed `write` and its errno.
    public let cause: FileCallError

    public var description: String { "cannot write \(path): \(cause.reason)" }
}
