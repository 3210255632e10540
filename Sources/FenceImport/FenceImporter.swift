/// `gpsfence fences import`: every source read in turn into one GeoJSON fence file, written to a
/// file descriptor the caller opened (and renames into place once this returns).
public struct FenceImporter {
    public var settings: ImportSettings

    public init(settings: ImportSettings) { self.settings = settings }

    /// Reads `sources` in order; returns what was kept and skipped. Throws `ImportError` for a
    /// source that cannot be read, `WriteFailure` when the output cannot be written.
    public func run(sources: [String], descriptor: Int32, outputName: String) throws -> ImportSummary {
        let writer = try FenceWriter(
            descriptor: descriptor, outputName: outputName, boundingBox: settings.boundingBox,
            checkDuplicates: sources.count > 1)
        for path in sources {
            let offeredBefore = writer.offered
            let format = try SourceFormat.of(path)
            switch format {
            case .osmXML:
                try requireOSMSelection(path)
                try OSMImport(reader: try OSMXMLReader(path: path), settings: settings, writer: writer).run()
            case .gpx:
                try GPXImport(path: path, settings: settings, writer: writer).run()
            case .kml:
                try KMLImport(path: path, settings: settings, writer: writer).run()
            case .osmPBF:
                try requireOSMSelection(path)
                try OSMImport(reader: try OSMPBFReader(path: path), settings: settings, writer: writer).run()
            case .kmz:
                let archive = try ByteSource(path: path)
                let (name, bytes) = try ZipEntry.kml(in: archive)
                let source = ByteSource(bytes: bytes, path: path, entry: name)
                try KMLImport(path: path, settings: settings, writer: writer).run(XMLReader(source: source))
            }
            if writer.offered == offeredBefore, format.isDrawn {
                throw ImportError(
                    file: path,
                    problem: .nothingBecameAFence(
                        format == .gpx ? .gpx : .kml, skipped: writer.summary.skipped.keys.sorted()))
            }
        }
        if let box = settings.boundingBox, writer.summary.keptCount == 0, writer.summary.insideOsmiumOrderBox > 0,
            let other = box.inOsmiumOrder
        {
            throw ImportError(
                file: sources.joined(separator: ", "),
                problem: .boxInOtherOrder(box, wouldKeep: writer.summary.insideOsmiumOrderBox, osmiumOrder: other))
        }
        try writer.finish()
        return writer.summary
    }

    private func requireOSMSelection(_ path: String) throws(ImportError) {
        guard settings.selectsOSM else {
            throw ImportError(file: path, problem: .noOSMSelection)
        }
    }
}
